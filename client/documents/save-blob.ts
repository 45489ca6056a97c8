/** Saves a blob under `fileName` through a temporary download link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the URL after this task; revoking at once would cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
