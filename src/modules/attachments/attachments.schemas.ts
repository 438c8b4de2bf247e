import { Type } from 'typebox';
import { ref } from '../../schemas/common.js';
import { AttachmentSchema } from '../../schemas/item.js';

export { AttachmentSchema } from '../../schemas/item.js';

export const AttachmentCreatedSchema = Type.Object({ attachment: ref(AttachmentSchema) }, { $id: 'AttachmentCreated', title: 'AttachmentCreated' });

/** The form of POST /items/{id}/attachments, as the route hands it to validation (the file by its name). */
export const AttachmentForm = Type.Object({
  file: Type.String({ format: 'binary', description: 'the file; its base name (control characters removed, at most 255 characters) is kept' }),
});

export const StorageSchema = Type.Object(
  {
    used: Type.Integer({ minimum: 0, description: "bytes the user's attachments take, each distinct content counted once" }),
    limit: Type.Integer({ minimum: 0, description: 'bytes the plan allows: 100 MiB (Free), 10 GiB (Pro)' }),
  },
  { description: 'attachment storage, in bytes' },
);
