/** An error the web app shows as a page of its own (the API's errors stay JSON). */
export class PageError extends Error {
  override readonly name = 'PageError';
  constructor(
    readonly statusCode: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}
