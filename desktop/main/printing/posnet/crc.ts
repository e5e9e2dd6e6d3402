/** CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection, no final xor. */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

export function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0);
  return crc;
}

/** As written in a frame: four upper-case hex digits, zero-padded. */
export function crcText(bytes: Uint8Array): string {
  return crc16xmodem(bytes).toString(16).toUpperCase().padStart(4, '0');
}
