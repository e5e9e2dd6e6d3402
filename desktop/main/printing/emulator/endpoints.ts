import net from 'node:net';
import { MockBinding, type MockBindingInterface } from '@serialport/binding-mock';
import type { SerialBinding } from '../posnet/serial-transport';
import type { ByteEndpoint } from '../posnet/transport';
import type { PosnetEmulator } from './emulator';

/**
 * A serialport binding (@serialport/binding-mock) whose port `path` is wired to the emulator: what
 * the driver writes reaches the device, the device's replies arrive as received data. The driver's
 * real serial code (SerialTransport over SerialPortStream) runs unchanged on top of it.
 */
export function mockSerialBinding(emulator: PosnetEmulator, path: string): SerialBinding {
  MockBinding.createPort(path, { echo: false, record: false });
  const binding: MockBindingInterface = {
    ...MockBinding,
    async open(options) {
      const port = await MockBinding.open(options);
      const listeners = new Set<(chunk: Uint8Array) => void>();
      const write = port.write.bind(port);
      port.write = async (buffer: Buffer) => {
        await write(buffer);
        for (const listener of [...listeners]) listener(Uint8Array.from(buffer));
      };
      const detach = emulator.attach({
        write: (bytes) => {
          if (port.isOpen) port.emitData(Buffer.from(bytes));
        },
        onData: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      });
      const close = port.close.bind(port);
      port.close = async () => {
        detach();
        await close();
      };
      return port;
    },
  };
  return binding as SerialBinding;
}

/** The emulator listening on TCP, as a LAN-connected printer does. Port 0 picks a free one. */
export async function listenTcp(
  emulator: PosnetEmulator,
  options: { port?: number; host?: string } = {},
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const endpoint: ByteEndpoint = {
      write: (bytes) => socket.write(bytes),
      onData: (listener) => {
        socket.on('data', listener);
        return () => socket.off('data', listener);
      },
    };
    const detach = emulator.attach(endpoint);
    socket.on('error', () => {});
    socket.on('close', () => {
      detach();
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
