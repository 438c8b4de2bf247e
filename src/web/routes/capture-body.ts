import { Type } from 'typebox';
import { NOTES_MAX } from '../item-form.js';
import { CSRF_FIELD, field } from './forms.js';

/** The capture form (views/capture.views.ts) as POST /inbox/capture reads it, with the fields only its script sends. */
export const CaptureBody = Type.Object({
  ...CSRF_FIELD,
  text: field(NOTES_MAX * 4),
  type: field(10),
  project_id: field(100),
  return: field(2000),
  organize: field(5),
  organize_shown: field(5),
  /** Made by the script for each capture: sending the same capture again (an offline queue's replay) saves it once. */
  client_id: field(100),
  /** When an offline capture was typed (ISO 8601): its dates are read at that moment (decision 0085). */
  typed_at: field(40),
  /** Ranges of the text whose quick-add reading the user refused (decision 0098, literal-ranges.ts). */
  literal: field(600),
});
