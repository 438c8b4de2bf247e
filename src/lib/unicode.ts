/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string cannot be encoded as UTF-8 (String.prototype.isWellFormed, before ES2024 typings). */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
