import type { Command } from '../command.js';
import { add } from './add.js';
import { archive } from './archive.js';
import { attach, getAttachment } from './attach.js';
import { channels } from './channels.js';
import { completion } from './completion.js';
import { done } from './done.js';
import { edit } from './edit.js';
import { exportCommand } from './export.js';
import { feeds } from './feeds.js';
import { filters } from './filters.js';
import { importCommand } from './import.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { keys } from './keys.js';
import { ls } from './ls.js';
import { mcp } from './mcp.js';
import { projects } from './projects.js';
import { rm } from './rm.js';
import { search } from './search.js';
import { show } from './show.js';
import { skill } from './skill.js';
import { snooze } from './snooze.js';
import { undone } from './undone.js';
import { voice } from './voice.js';
import { watch } from './watch.js';
import { whoami } from './whoami.js';

/** Every command, in the order `cin --help` lists them. A new command is one file and one line here. */
export const COMMANDS: readonly Command[] = [
  login,
  logout,
  whoami,
  add,
  ls,
  search,
  show,
  done,
  undone,
  archive,
  rm,
  edit,
  snooze,
  channels,
  projects,
  filters,
  feeds,
  voice,
  attach,
  getAttachment,
  exportCommand,
  importCommand,
  watch,
  keys,
  mcp,
  skill,
  completion(() => COMMANDS),
];

export const findCommand = (name: string): Command | undefined => COMMANDS.find((c) => c.name === name);
