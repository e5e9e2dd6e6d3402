import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { outdatedBrowserNotice } from './vite.config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apps = readdirSync(webRoot).filter((d) => existsSync(`${webRoot}${d}/index.html`));

describe('the outdated-browser notice (spec §8)', () => {
  const transform = outdatedBrowserNotice().transformIndexHtml as (html: string) => string;

  it.each(apps)('%s/index.html gets it inside #root, in English and Polish', (app) => {
    const html = transform(readFileSync(`${webRoot}${app}/index.html`, 'utf8'));
    const root = /<div id="root">([\s\S]*?)<\/div>\s*<script/.exec(html)?.[1] ?? '';
    expect(root).toContain('class="sp-outdated-browser"');
    expect(root).toContain('Your browser is outdated and not supported.');
    expect(root).toContain('Twoja przeglądarka jest przestarzała');
    // Hidden until the app has had 8 s to start.
    expect(root).toMatch(/animation: sp-outdated 0s 8s forwards/);
    expect(html).not.toContain('<!--outdated-browser-->');
  });
});
