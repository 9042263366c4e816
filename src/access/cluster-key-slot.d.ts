// Types for cluster-key-slot (ioredis's own slot function; the package ships none).
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0–16383) of a key, honouring {hash tags}. */
  export default function calculateSlot(key: string | Buffer): number;
}
