import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** Renders a QR code as a PNG data URL (the `qrcode` library), large enough to scan from a phone. */
export function useQrDataUrl(payload: string | undefined, size = 280): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!payload) return;
    let live = true;
    void QRCode.toDataURL(payload, { width: size, margin: 2, errorCorrectionLevel: 'M' }).then((u) => {
      if (live) setUrl(u);
    });
    return () => {
      live = false;
    };
  }, [payload, size]);
  return url;
}
