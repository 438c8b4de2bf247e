/** Posts a form the way the browser would (same-origin cookies) and resolves to the page it answers. */
export async function postForm(url: string, data: URLSearchParams): Promise<string> {
  const res = await fetch(url, { method: 'POST', body: data, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`status ${res.status}`);
  return res.text();
}

/** A field's value in a form ('' when the form has no such field). */
export function fieldValue(form: HTMLFormElement, name: string): string {
  return form.querySelector<HTMLInputElement>(`input[name=${name}]`)?.value ?? '';
}
