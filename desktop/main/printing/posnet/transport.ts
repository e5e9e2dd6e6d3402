/**
 * A byte pipe to a device. The driver speaks frames over any of these: a serial port (USB virtual
 * COM ports included), a TCP socket, or an in-process pair for tests.
 */
export interface Transport {
  /** For logs and the diagnostics screen: "serial /dev/ttyUSB0 9600 8N1", "tcp 10.0.0.5:6666". */
  readonly label: string;
  open(): Promise<void>;
  close(): Promise<void>;
  write(bytes: Uint8Array): Promise<void>;
  /** Returns the unsubscribe function. */
  onData(listener: (chunk: Uint8Array) => void): () => void;
}

/** The device side of a pipe, as the emulator uses it. */
export interface ByteEndpoint {
  write(bytes: Uint8Array): unknown;
  onData(listener: (chunk: Uint8Array) => void): () => void;
}

export class TransportClosedError extends Error {
  constructor(label: string) {
    super(`${label} is not open`);
    this.name = 'TransportClosedError';
  }
}

class Listeners {
  private readonly set = new Set<(chunk: Uint8Array) => void>();
  add(listener: (chunk: Uint8Array) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(chunk: Uint8Array): void {
    for (const listener of [...this.set]) listener(chunk);
  }
}

/** One end of an in-process pipe: what one end writes the other receives, in order, on a later tick. */
export class InProcessEnd implements Transport, ByteEndpoint {
  peer: InProcessEnd | null = null;
  private readonly listeners = new Listeners();
  private opened = true;

  constructor(readonly label: string) {}

  async open(): Promise<void> {
    this.opened = true;
  }

  async close(): Promise<void> {
    this.opened = false;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.opened) throw new TransportClosedError(this.label);
    const copy = Uint8Array.from(bytes);
    const peer = this.peer;
    setImmediate(() => {
      if (peer?.opened) peer.listeners.emit(copy);
    });
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    return this.listeners.add(listener);
  }
}

/** Two connected ends: `app` for the driver, `device` for the emulator. */
export function createInProcessPair(): { app: InProcessEnd; device: InProcessEnd } {
  const app = new InProcessEnd('in-process (app)');
  const device = new InProcessEnd('in-process (device)');
  app.peer = device;
  device.peer = app;
  return { app, device };
}
