import { Type } from 'typebox';
import { UtcTimestamp, Uuid, ref } from '../../schemas/common.js';

export const ProjectSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    is_default: Type.Boolean({ description: 'true for the Inbox, which cannot be renamed or deleted' }),
    item_count: Type.Integer({ description: 'all items, archived and completed included' }),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
  },
  { $id: 'Project', title: 'Project' },
);

export const ProjectListSchema = Type.Object({ projects: Type.Array(ref(ProjectSchema)) }, { $id: 'ProjectList', title: 'ProjectList' });

// The 100-character limit applies after trimming, so the service checks it (a padded 100-character name is valid).
const Name = Type.String({ minLength: 1, pattern: '\\S', description: '1 to 100 characters after trimming' });
export const ProjectNameBody = Type.Object({ name: Name });
export const PatchProjectBody = Type.Object({ name: Type.Optional(Name) });
