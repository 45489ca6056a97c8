/** Joins class names, skipping empty ones (RAC render props may hand back undefined). */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
