// A helper shared by the text tools; files named _*.ts are never scanned for tools.
export function words(text: string): string[] {
  return text.split(/\s+/u).filter(Boolean);
}
