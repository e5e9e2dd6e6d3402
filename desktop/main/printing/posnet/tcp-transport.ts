import net from 'node:net';
import { TransportClosedError, type Transport } from './transport';

export interface TcpSettings {
  host: string;
  port: number;
  connectTimeoutMs?: number;
}

/** A Transport over TCP (LAN-connected printers; POSNET online printers listen on a configured port). */
export class TcpTransport implements Transport {
  readonly label: string;
  private socket: net.Socket | null = null;
  private readonly listeners = new Set<(chunk: Uint8Array) => void>();

  constructor(private readonly settings: TcpSettings) {
    this.label = `tcp ${settings.host}:${settings.port}`;
  }

  async open(): Promise<void> {
    if (this.socket && !this.socket.destroyed) return;
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: this.settings.host, port: this.settings.port });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new Error(`${this.label}: connection timed out`));
      }, this.settings.connectTimeoutMs ?? 5000);
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      for (const listener of [...this.listeners]) listener(chunk);
    });
    socket.on('error', () => {});
    this.socket = socket;
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (!socket || socket.destroyed) return;
    await new Promise<void>((resolve) => socket.end(() => resolve()));
    socket.destroy();
  }

  async write(bytes: Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.destroyed) throw new TransportClosedError(this.label);
    await new Promise<void>((resolve, reject) =>
      socket.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
