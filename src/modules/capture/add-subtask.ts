import { AppError } from '../../errors.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { ItemView } from '../items/item-view.js';
import type { ItemsService } from '../items/items.service.js';
import type { CaptureService } from './capture.service.js';

export interface SubtasksService {
  /**
   * Captures `text` as a subtask of the item: in the parent's project, then placed under it with
   * the PATCH rules. Should the parent vanish in between, the new item is removed again.
   */
  add(user: AuthUser, parentId: string, text: string): Promise<ItemView>;
}

export function createSubtasksService(deps: { items: ItemsService; capture: CaptureService }): SubtasksService {
  return {
    async add(user, parentId, text) {
      const parent = await deps.items.get(user.id, parentId);
      const { item } = await deps.capture.capture(user, { text, project_id: parent.project_id });
      try {
        return await deps.items.patch(user.id, item.id, { parent_id: parent.id });
      } catch (error) {
        await deps.items.remove(user.id, item.id).catch(() => undefined);
        if (error instanceof AppError && error.details?.[0]?.field === 'parent_id') throw new AppError('not_found', 'item not found');
        throw error;
      }
    },
  };
}
