/**
 * Types for @serialport/binding-mock: its package.json "exports" has no "types" entry, so under
 * moduleResolution "bundler" TypeScript cannot find the declarations it ships. This restates the
 * part we use (same shapes as its dist/index.d.ts).
 */
declare module '@serialport/binding-mock' {
  export interface MockPortBinding {
    readonly openOptions: Readonly<Record<string, unknown>> & { path: string; baudRate: number };
    isOpen: boolean;
    lastWrite: Buffer | null;
    emitData(data: Buffer | string): void;
    write(buffer: Buffer): Promise<void>;
    read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>;
    close(): Promise<void>;
  }

  export interface CreatePortOptions {
    echo?: boolean;
    record?: boolean;
    readyData?: Buffer;
    maxReadSize?: number;
  }

  export interface MockBindingInterface {
    reset(): void;
    createPort(path: string, options?: CreatePortOptions): void;
    list(): Promise<{ path: string }[]>;
    open(options: { path: string; baudRate: number } & Record<string, unknown>): Promise<MockPortBinding>;
  }

  export const MockBinding: MockBindingInterface;
}
