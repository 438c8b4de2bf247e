/** A field's value in a form ('' when the form has no such field). */
export function fieldValue(form: HTMLFormElement, name: string): string {
  return form.querySelector<HTMLInputElement>(`input[name=${name}]`)?.value ?? '';
}
