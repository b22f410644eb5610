/** Path of the installed Electron binary, or null (never triggers a download). */
export function electronBinary(): string | null;
