import type { Command } from 'commander';
// Placeholder: the 'keys' command is registered by its owner module.
export function register(_program: Command): void {}
