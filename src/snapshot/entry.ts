/** One snapshot of the data folder, as `coverage data list` shows it. */
export interface SnapshotEntry {
  name: string;
  file: string;
  as_of: string | null;
  size_bytes: number;
  /** When it was pulled (ISO time), else when the file was last written. */
  pulled_at: string;
  /** Where it came from: the pull's source, else what the snapshot says of itself. */
  source: string;
}
