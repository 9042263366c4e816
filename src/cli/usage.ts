import type { Command } from 'commander';
// Placeholder: the 'usage' command is registered by its owner module.
export function register(_program: Command): void {}
