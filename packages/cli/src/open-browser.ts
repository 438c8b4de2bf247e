import { spawn } from 'node:child_process';

/**
 * Opens the URL in the user's browser when there is a screen to show it on: $BROWSER when set (the
 * convention xdg-open and Python's webbrowser follow), else the platform's opener. On Linux without
 * DISPLAY or WAYLAND_DISPLAY (ssh, a container) it opens nothing. Fire and forget: a missing opener
 * only means the user clicks the printed link.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  const hasDisplay = platform === 'darwin' || platform === 'win32' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  if (!hasDisplay) return false;
  const browser = env.BROWSER?.split(':')[0]?.trim();
  const [command, args] = browser
    ? [browser, [url]]
    : platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
