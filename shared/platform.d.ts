/**
 * The few web platform APIs shared/ uses that every runtime of it provides — browsers, Node ≥ 20 and
 * Electron — declared here, as far as shared/ uses them, because shared/ compiles without the DOM's
 * and Node's type libraries (shared/tsconfig.json). Only this project sees these declarations: the
 * apps type the same names from their own library (DOM or Node). Anything else of the DOM or of
 * Node is not for shared/ (see eslint.config.js).
 */

declare class URLSearchParams {
  constructor(init?: string | Record<string, string>);
  set(name: string, value: string): void;
  get(name: string): string | null;
  toString(): string;
}

declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly searchParams: URLSearchParams;
  toString(): string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}

declare function btoa(data: string): string;
declare function atob(data: string): string;

interface AbortSignal {
  readonly aborted: boolean;
}
declare const AbortSignal: { timeout(milliseconds: number): AbortSignal };

interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  redirect?: 'follow' | 'error' | 'manual';
  signal?: AbortSignal;
}

interface Response {
  readonly ok: boolean;
  readonly status: number;
  readonly body: { cancel(reason?: unknown): Promise<void> } | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

declare function fetch(input: string, init?: RequestInit): Promise<Response>;
