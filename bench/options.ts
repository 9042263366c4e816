// The benchmark's options, from flags or environment (BENCH_*). Guarantees: every
// scenario of one run uses the same connections, duration and warm-up.
export interface BenchOptions {
  products: number;
  ingredients: number;
  seed: number;
  /** Seconds measured per scenario. */
  duration: number;
  /** Seconds of unmeasured load before each scenario. */
  warmup: number;
  connections: number;
  /** Scenario names to run (baseline always runs); empty for all. */
  only: string[];
  /** Worker processes for the cluster scenarios; 0 skips them. */
  workers: number;
  redis: string;
  /** Rebuild the catalogue even when a cached one exists. */
  rebuild: boolean;
  /** Write the results as BENCHMARKS.md (full runs). */
  markdown: boolean;
  /** Profile the server during this scenario (writes a .cpuprofile and a summary). */
  profile: string | undefined;
}

const HELP = `usage: npm run bench -- [options]   (or node dist/bench/run.js [options])
  --products N      synthetic products (default 200000)          BENCH_PRODUCTS
  --ingredients N   synthetic ingredients (default: generator's)  BENCH_INGREDIENTS
  --seed S          generator seed (default 1)                    BENCH_SEED
  --duration S      seconds measured per scenario (default 10)    BENCH_DURATION
  --warmup S        seconds of warm-up per scenario (default 2)   BENCH_WARMUP
  --connections N   concurrent connections, no pipelining (default 32)  BENCH_CONNECTIONS
  --only A,B        run only these scenarios (baseline always runs; signin-flood: the API beside a sign-in flood)  BENCH_ONLY
  --workers N       workers for the cluster scenarios (default: cores; 0 skips)  BENCH_WORKERS
  --redis URL       Redis for the metering scenario (default redis://127.0.0.1:6379/13; "off" skips)  BENCH_REDIS
  --rebuild         rebuild the cached catalogue
  --markdown        write BENCHMARKS.md from this run
  --profile NAME    CPU-profile the server during scenario NAME
  --quick           same as --products 20000 --duration 3 --warmup 1`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv, cores: number): BenchOptions {
  const o: BenchOptions = {
    products: num(env.BENCH_PRODUCTS, 200_000),
    ingredients: num(env.BENCH_INGREDIENTS, 0),
    seed: num(env.BENCH_SEED, 1),
    duration: num(env.BENCH_DURATION, 10),
    warmup: num(env.BENCH_WARMUP, 2),
    connections: num(env.BENCH_CONNECTIONS, 32),
    only: list(env.BENCH_ONLY),
    workers: num(env.BENCH_WORKERS, cores),
    redis: env.BENCH_REDIS ?? 'redis://127.0.0.1:6379/13',
    rebuild: false,
    markdown: false,
    profile: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '--products':
        o.products = num(value(), 0, a);
        break;
      case '--ingredients':
        o.ingredients = num(value(), 0, a);
        break;
      case '--seed':
        o.seed = num(value(), 0, a);
        break;
      case '--duration':
        o.duration = num(value(), 0, a);
        break;
      case '--warmup':
        o.warmup = num(value(), 0, a);
        break;
      case '--connections':
        o.connections = num(value(), 0, a);
        break;
      case '--only':
        o.only = list(value());
        break;
      case '--workers':
        o.workers = num(value(), 0, a);
        break;
      case '--redis':
        o.redis = value();
        break;
      case '--rebuild':
        o.rebuild = true;
        break;
      case '--markdown':
        o.markdown = true;
        break;
      case '--profile':
        o.profile = value();
        break;
      case '--quick':
        Object.assign(o, { products: 20_000, duration: 3, warmup: 1 });
        break;
      case '--help':
      case '-h':
        process.stdout.write(HELP + '\n');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${a}\n${HELP}`);
    }
  }
  if (o.products < 1 || o.duration <= 0 || o.connections < 1)
    throw new Error('--products, --duration and --connections must be positive');
  return o;
}

function num(v: string | undefined, dflt: number, name = 'value'): number {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, not "${v}"`);
  return n;
}

function list(v: string | undefined): string[] {
  return v === undefined || v === ''
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

/** The value after `flag` in argv (both taken out of argv), or undefined when the flag is absent. */
export function take(argv: string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
}
