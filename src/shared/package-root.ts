// The project's root directory (the one holding package.json), found from this
// module's location so that defaults do not depend on the current directory.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the project root (no package.json above this module)');
    dir = up;
  }
  return dir;
}
