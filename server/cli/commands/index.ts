import type { Command } from '../command';
import { fulfilmentCommands } from './fulfilment';
import { importCommands } from './import-bundle';
import { keysCommands } from './keys';

/**
 * Every command of the staff command line, in the order `--help` lists them. A new group is one
 * file beside this one exporting its commands, added here.
 */
export const COMMANDS: Command[] = [...keysCommands, ...importCommands, ...fulfilmentCommands];
