import { Alert, Button, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How often a frame is read: often enough to feel instant, rare enough for a small kiosk tablet. */
const SCAN_EVERY_MS = 200;

/** The browser can open a camera here (a secure page with mediaDevices). */
export const cameraAvailable = (): boolean =>
  typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';

/**
 * QR codes read with the kiosk's camera (the client's app shows the code). The decoder (jsQR, about
 * 130 kB) is loaded only when the camera opens. Frames are read into a canvas that never leaves the
 * device. The scanner wedge and typing keep working next to it: this is one more way in, not the way.
 */
export function QrCamera({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useTranslation('kiosk');
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<'denied' | 'unsupported' | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const done = useRef(onCode);
  useEffect(() => {
    done.current = onCode;
  }, [onCode]);

  useEffect(() => {
    if (!open) return;
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    void (async () => {
      try {
        const [{ decodeQr }, media] = await Promise.all([
          import('./qr-decode'),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false }),
        ]);
        stream = media;
        if (stopped || !video.current || !context) return media.getTracks().forEach((track) => track.stop());
        video.current.srcObject = media;
        await video.current.play().catch(() => undefined);
        const scan = () => {
          const v = video.current;
          if (stopped || !v) return;
          if (v.videoWidth > 0) {
            canvas.width = v.videoWidth;
            canvas.height = v.videoHeight;
            context.drawImage(v, 0, 0);
            const code = decodeQr(context.getImageData(0, 0, canvas.width, canvas.height));
            if (code) {
              setOpen(false);
              done.current(code);
              return;
            }
          }
          timer = window.setTimeout(scan, SCAN_EVERY_MS);
        };
        scan();
      } catch {
        if (!stopped) {
          setProblem('denied');
          setOpen(false);
        }
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [open]);

  const start = () => {
    setProblem(null);
    if (!cameraAvailable()) setProblem('unsupported');
    else setOpen(true);
  };

  return (
    <Stack gap="sm" data-testid="kiosk-camera">
      {open ? (
        <>
          <video
            ref={video}
            muted
            playsInline
            data-testid="kiosk-camera-video"
            style={{
              width: '100%',
              maxHeight: 360,
              borderRadius: 12,
              background: '#000',
              objectFit: 'cover',
            }}
          />
          <Text size="lg" ta="center">
            {t('camera.hint')}
          </Text>
          <Button size="lg" variant="default" onClick={() => setOpen(false)} data-testid="kiosk-camera-close">
            {t('camera.close')}
          </Button>
        </>
      ) : (
        <Button size="xl" h={72} fz={22} variant="light" onClick={start} data-testid="kiosk-camera-open">
          {t('camera.open')}
        </Button>
      )}
      {problem && (
        <Alert color="orange" variant="light" radius="lg" data-testid="kiosk-camera-problem">
          <Text size="lg">{t(`camera.${problem}`)}</Text>
        </Alert>
      )}
    </Stack>
  );
}
