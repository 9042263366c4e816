// Weighted random choice over a fixed list (cumulative table + binary search), and
// Zipf–Mandelbrot weights for skewed popularity. Guarantees: index i is drawn with
// probability weight[i] / sum(weights); weights must be non-negative with a positive sum.
import type { Rng } from './prng';

export class WeightedSampler {
  private readonly cdf: Float64Array;

  constructor(weights: ArrayLike<number>) {
    this.cdf = new Float64Array(weights.length);
    let sum = 0;
    for (let i = 0; i < weights.length; i++) this.cdf[i] = sum += weights[i];
    if (!(sum > 0)) throw new Error('weighted sampler needs a positive total weight');
  }

  get size(): number {
    return this.cdf.length;
  }

  draw(rng: Rng): number {
    const x = rng.next() * this.cdf[this.cdf.length - 1];
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Weight of rank k (0-based) is 1 / (k + 1 + q)^s. */
export function zipfWeights(n: number, s: number, q = 0): Float64Array {
  const w = new Float64Array(n);
  for (let k = 0; k < n; k++) w[k] = 1 / Math.pow(k + 1 + q, s);
  return w;
}

/** A sampler over a list of [value, weight] pairs. */
export class Choice<T> {
  private readonly values: T[];
  private readonly sampler: WeightedSampler;
  constructor(pairs: ReadonlyArray<readonly [T, number]>) {
    this.values = pairs.map((p) => p[0]);
    this.sampler = new WeightedSampler(pairs.map((p) => p[1]));
  }
  draw(rng: Rng): T {
    return this.values[this.sampler.draw(rng)];
  }
}
