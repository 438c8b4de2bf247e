import { z } from 'zod';
import { guarded, toolResult } from '../results.js';
import type { ToolCatalog } from '../tool-catalog.js';
import type { ToolContext } from '../tool-context.js';

const CreatedProject = z.object({ project: z.object({ id: z.string(), name: z.string() }) });

export function registerProjectTools(tools: ToolCatalog, ctx: ToolContext): void {
  tools.add(
    'create_project',
    {
      description: 'Create a project; an existing name (any case) answers it: safe to repeat.',
      input: z.object({ name: z.string().trim().min(1).max(100) }),
      output: CreatedProject,
      hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ name }) =>
      guarded(async () => {
        const project = await ctx.api.createProject(name);
        ctx.invalidateProjects();
        return toolResult(`Created project ${project.name} · id ${project.id}`, CreatedProject, { project: { id: project.id, name: project.name } });
      }),
  );
}
