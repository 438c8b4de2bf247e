import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, toolResult } from '../results.js';
import type { ToolContext } from '../tool-context.js';

const CreatedProject = z.object({ project: z.object({ id: z.string(), name: z.string() }) });

export function registerProjectTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'create_project',
    {
      title: 'Create a project',
      description:
        'Create a project to file items in. Names match case-insensitively: asking for a name that exists answers that project ' +
        'and creates nothing, so it is safe to call when unsure.',
      inputSchema: z.object({ name: z.string().trim().min(1).max(100).describe('The project name.') }),
      outputSchema: CreatedProject,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ name }) =>
      guarded(async () => {
        const project = await ctx.api.createProject(name);
        ctx.invalidateProjects();
        return toolResult(`Created project ${project.name} · id ${project.id}`, CreatedProject, { project: { id: project.id, name: project.name } });
      }),
  );
}
