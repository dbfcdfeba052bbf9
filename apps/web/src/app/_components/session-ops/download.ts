/** Saves a text as a file through the browser's download (the export comes from the host as text). */
export function downloadText(file: { filename: string; mimeType: string; text: string }) {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file.filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
