/**
 * The Debian package's Chromium, driven by playwright-core (which cannot download a browser here):
 * headless, no sandbox, nothing fetched from the network on its own. CHROMIUM_PATH overrides the path.
 */
import { chromium, type Browser } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
