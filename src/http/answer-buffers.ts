// Reused buffers for batch answers (about 500 KB each). A new buffer of that size is memory
// the allocator maps afresh (one page fault per 4 KiB page: about 120 a batch) and V8 counts
// as external memory, which starts full collections of the heap; a pooled one costs neither.
// Guarantees: a buffer is lent to one answer at a time and taken back only once its
// response has been handed to the operating system ('finish'); a response that ends without
// it (the connection closed) keeps its buffer, which the collector frees; at most KEEP
// buffers are kept, and an answer larger than a slab gets a buffer of its own. The slabs
// come from the catalogue (Catalogue#answerSlab), which writes a batch in its own slabs
// without a copy.
import type { ServerResponse } from 'node:http';
import { ANSWER_SLAB_BYTES as SLAB } from '../catalogue/format';

/** Buffers kept (KEEP × SLAB of memory at most): one per connection sending a batch at once (32 in the bench: about 16 MiB touched). */
const KEEP = 32;

export class AnswerBuffers {
  private readonly free: Buffer[] = [];

  /** `slab`: a new buffer of SLAB bytes (the catalogue's). */
  constructor(private readonly slab: () => Buffer = () => Buffer.allocUnsafeSlow(SLAB)) {}

  /** A buffer of at least `size` bytes for `res`'s answer, lent until the response is sent. */
  lend(size: number, res: ServerResponse): Buffer {
    if (size > SLAB) return Buffer.allocUnsafe(size);
    const b = this.free.pop() ?? this.slab();
    res.once('finish', () => {
      if (this.free.length < KEEP) this.free.push(b);
    });
    return b;
  }

  /** Buffers waiting to be lent (tests). */
  get idle(): number {
    return this.free.length;
  }
}
