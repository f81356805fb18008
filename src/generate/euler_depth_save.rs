//! The moves-left pass's saves to the checkpoint (its format:
//! [`super::checkpoint`]), and its resume from them: after a step, when a
//! save is due, the chunks of this rank's byte columns that changed since
//! the last save are handed to a writer thread, which copies each out
//! under the chunk's lock (the pass goes on with the next steps meanwhile,
//! and takes a chunk's lock to work on it), masks it at the step, writes
//! it at its place past the page cache, syncs, and says so; once every
//! rank has, rank 0 appends the step's record.
//!
//! # When
//!
//! A save is due when the time since the last save (of a layer or a step)
//! is at least `every` and at least ten times the CPU time the writer took
//! for the last one, and the writer is idle: the pass never waits for a
//! save, and what the saves cost it, the writer's CPU time on cores the
//! pass uses, stays within about a tenth of its time, whatever the disk's
//! speed (a slow disk only spaces the saves out). The first save also
//! writes the win/loss layers the win/loss pass left unsaved (all of them,
//! on a board whose win/loss pass is shorter than `every`). With `every`
//! zero every step is saved. A run cancelled waits for the save under way
//! and records it; a pass that ended does not (its checkpoint is removed
//! once the table is written), unless every step is to be saved.
//!
//! A step's state is its two byte columns (the sets the next step reads
//! are the positions of at most `d` and `d - 1` moves left): a save
//! writes no bitset, and a resume rebuilds both sets from the columns.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard, PoisonError, mpsc};
use std::time::{Duration, Instant};

use memmap2::MmapMut;
use rayon::prelude::*;

use super::checkpoint::{BlockFile, Checkpoint, DepthFile, DepthRecord};
use super::euler_winloss::{Saved, Unsaved, record_layers};
use super::{GenerateError, Hooks, Phase, Progress, Reporter};
use crate::ranks::{Ranks, agree, agree_gather, agree_saves};
use crate::tablefile::direct::DirectWrites;
use crate::tablefile::parts::PartCrc;

/// One chunk of a rank's depth columns, its moves-left and best-move
/// bytes, behind the lock that the pass and the writer take in turn. A run
/// by class has no best-move column: its chunks' best-move bytes are
/// empty, and nothing of that column is saved.
pub(super) type Chunk<'a> = Mutex<(&'a mut [u8], &'a mut [u8])>;

/// Takes a chunk's lock (a thread that panicked holding it stops the pass
/// anyway: its bytes are only ever read).
pub(super) fn lock<'g, 'a>(chunk: &'g Chunk<'a>) -> MutexGuard<'g, (&'a mut [u8], &'a mut [u8])> {
    chunk.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Chunks the writer copies and writes at once: with chunks of 64 Ki
/// positions, 1 MiB of each column.
pub(super) const RUN_CHUNKS: usize = 16;

/// This rank's part of the depth pass's columns, as the saves see them.
#[derive(Clone, Copy)]
pub(super) struct Columns<'a> {
    /// The chunks, in order.
    pub(super) chunks: &'a [Chunk<'a>],
    /// Positions of a chunk (the last may have fewer).
    pub(super) chunk_positions: usize,
    /// The position of the first chunk's first byte.
    pub(super) first_position: u64,
}

impl Columns<'_> {
    /// Positions of chunk `i`.
    fn len_of(&self, i: usize) -> usize {
        lock(&self.chunks[i]).0.len()
    }

    /// The position of chunk `i`'s first byte.
    fn position_of(&self, i: usize) -> u64 {
        self.first_position + (i * self.chunk_positions) as u64
    }
}

/// The masked CRCs of a chunk's two columns.
type ChunkCrcs = [PartCrc; 2];

/// Sets every entry of more than `step` moves left to 0, in both columns
/// (`best` empty where there is none): the columns as they were right
/// after `step`, whatever later steps wrote (or an earlier run left in a
/// checkpoint).
fn mask(step: u8, plies: &mut [u8], best: &mut [u8]) {
    if best.is_empty() {
        for p in plies.iter_mut() {
            *p = if *p <= step { *p } else { 0 };
        }
        return;
    }
    for (p, b) in plies.iter_mut().zip(best.iter_mut()) {
        let keep = *p <= step;
        *p = if keep { *p } else { 0 };
        *b = if keep { *b } else { 0 };
    }
}

/// The CRCs of the columns of chunk `i` when all 0 (a chunk no step has
/// taken a position into yet).
fn zero_crcs(range: &Columns<'_>) -> Vec<ChunkCrcs> {
    let zeros = vec![0u8; range.chunk_positions];
    let full = crc32fast::hash(&zeros);
    (0..range.chunks.len())
        .map(|i| {
            let chunk = lock(&range.chunks[i]);
            [chunk.0.len(), chunk.1.len()].map(|len| PartCrc {
                crc: if len == zeros.len() {
                    full
                } else {
                    crc32fast::hash(&zeros[..len])
                },
                len: len as u64,
            })
        })
        .collect()
}

/// The combined CRC of each column over the chunks.
fn combined(crcs: &[ChunkCrcs]) -> ChunkCrcs {
    let of = |k: usize| {
        let parts: Vec<PartCrc> = crcs.iter().map(|c| c[k]).collect();
        PartCrc {
            crc: PartCrc::combine(&parts),
            len: parts.iter().map(|p| p.len).sum(),
        }
    };
    [of(0), of(1)]
}

/// The state the pass resumes from: the step, this rank's positions taken
/// in by it, and the CRCs of its chunks.
pub(super) struct Loaded {
    /// The step saved, `d`.
    pub(super) step: u8,
    /// This rank's positions of at most `d` moves left.
    pub(super) taken: u64,
    crcs: Vec<ChunkCrcs>,
}

/// Reads this rank's range of the columns at the checkpoint's last step
/// `d` into `range`, masked at `d`, and rebuilds from them this rank's
/// words of `A(d)` (`sets.0`) and `A(d - 1)` (`sets.1`), the words from
/// `first_word`, of a bitset of `positions` entries in `words` words
/// (positions, or entries by class; the last is the full board's); every
/// rank's words are then ORed together. Checks the columns against the
/// step's record with the other ranks. `None` when the checkpoint holds no
/// step.
pub(super) fn load<F: Fn(Progress) + Sync>(
    checkpoint: &Checkpoint,
    (positions, words): (usize, usize),
    range: &Columns<'_>,
    first_word: usize,
    sets: (&mut [u64], &mut [u64]),
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<Option<Loaded>, GenerateError> {
    let Some(record) = checkpoint.depth_record() else {
        return Ok(None);
    };
    let step = u8::try_from(record.step).unwrap_or(u8::MAX);
    let file = checkpoint.depth_file();
    let per_word = positions / words;
    let chunk_words = range.chunk_positions / per_word;
    let full = positions as u64 - 1;
    let own: u64 = (0..range.chunks.len())
        .map(|i| range.len_of(i) as u64)
        .sum();
    let report = Reporter::start(hooks, Phase::Resume, 2 * own);
    let (now, before) = sets;
    let loaded: Result<Vec<(ChunkCrcs, u64)>, GenerateError> = range
        .chunks
        .par_iter()
        .zip(now[first_word..].par_chunks_mut(chunk_words))
        .zip(before[first_word..].par_chunks_mut(chunk_words))
        .enumerate()
        .map(|(i, ((chunk, now), before))| {
            let mut chunk = lock(chunk);
            let (plies, best) = &mut *chunk;
            let at = range.position_of(i);
            file.read(at, plies, best)?;
            mask(step, plies, best);
            let mut taken = 0;
            for (((k, word), now), before) in plies
                .chunks(per_word)
                .enumerate()
                .zip(now.iter_mut())
                .zip(before.iter_mut())
            {
                let (mut a, mut b) = (0u64, 0u64);
                for (j, &p) in word.iter().enumerate() {
                    let is_full = at + (k * per_word + j) as u64 == full;
                    let known = p != 0 || is_full;
                    a |= u64::from(known) << j;
                    b |= u64::from(known && (p < step || is_full)) << j;
                }
                taken += u64::from(a.count_ones());
                *now = a;
                *before = b;
            }
            report.add((plies.len() + best.len()) as u64);
            let crcs = [&**plies, &**best].map(|c| PartCrc {
                crc: crc32fast::hash(c),
                len: c.len() as u64,
            });
            Ok((crcs, taken))
        })
        .collect();
    // Every rank says what it read; rank 0 checks the parts against the
    // record, and says why they are refused.
    let (said, kept) = match loaded {
        Ok(chunks) => {
            let crcs: Vec<ChunkCrcs> = chunks.iter().map(|c| c.0).collect();
            let taken: u64 = chunks.iter().map(|c| c.1).sum();
            let [p, b] = combined(&crcs);
            let mut bytes = p.to_bytes().to_vec();
            bytes.extend_from_slice(&b.to_bytes());
            bytes.extend_from_slice(&taken.to_le_bytes());
            (Ok(bytes), Some((crcs, taken)))
        }
        Err(e) => (Err(e), None),
    };
    let all = agree_gather(ranks, said)?;
    let (mut plies, mut best, mut taken) = (Vec::new(), Vec::new(), 0);
    for m in &all {
        plies.push(PartCrc::from_bytes(&m[..PartCrc::LEN]));
        best.push(PartCrc::from_bytes(&m[PartCrc::LEN..2 * PartCrc::LEN]));
        let mut t = [0u8; 8];
        t.copy_from_slice(&m[2 * PartCrc::LEN..2 * PartCrc::LEN + 8]);
        taken += u64::from_le_bytes(t);
    }
    match checkpoint.check_depth(&plies, &best, taken) {
        Err(_) if ranks.rank() != 0 => return Err(GenerateError::OtherRank { rank: 0 }),
        checked => checked?,
    }
    // (This rank's own failure was returned by the agreement.)
    let Some((crcs, taken)) = kept else {
        return Err(GenerateError::OtherRank { rank: ranks.rank() });
    };
    if ranks.size() > 1 {
        ranks.or_words(now);
        ranks.or_words(before);
    }
    report.finish();
    Ok(Some(Loaded { step, taken, crcs }))
}

/// A save handed to the writer.
struct SaveJob {
    /// The step the columns are saved at.
    step: u8,
    /// This rank's positions taken in by it.
    taken: u64,
    /// This rank's chunks changed since the last save, in order.
    chunks: Vec<usize>,
    /// Win/loss layers not yet saved: this rank's blocks of each, and the
    /// positions won in them.
    layers: Vec<(u32, Vec<usize>, u64)>,
}

/// What a rank's writer saved and synced.
#[derive(Clone, Debug)]
struct StepSaved {
    step: u8,
    taken: u64,
    /// The CRCs of this rank's range of each column, masked at the step.
    plies: PartCrc,
    best: PartCrc,
    /// The win/loss layers written with it.
    layers: Vec<Saved>,
}

impl StepSaved {
    fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![self.step];
        b.extend_from_slice(&self.taken.to_le_bytes());
        b.extend_from_slice(&self.plies.to_bytes());
        b.extend_from_slice(&self.best.to_bytes());
        b.extend_from_slice(&(self.layers.len() as u32).to_le_bytes());
        for layer in &self.layers {
            b.extend_from_slice(&layer.to_bytes());
        }
        b
    }

    /// The saves one after another in `bytes`, as [`to_bytes`] wrote them.
    ///
    /// [`to_bytes`]: StepSaved::to_bytes
    fn all_from_bytes(mut bytes: &[u8]) -> Vec<StepSaved> {
        const FIXED: usize = 1 + 8 + 2 * PartCrc::LEN + 4;
        let u64_at =
            |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default());
        let mut all = Vec::new();
        while bytes.len() >= FIXED {
            let count = u32::from_le_bytes(bytes[FIXED - 4..FIXED].try_into().unwrap_or_default());
            let end = FIXED + count as usize * Saved::LEN;
            if bytes.len() < end {
                break;
            }
            all.push(StepSaved {
                step: bytes[0],
                taken: u64_at(bytes, 1),
                plies: PartCrc::from_bytes(&bytes[9..9 + PartCrc::LEN]),
                best: PartCrc::from_bytes(&bytes[9 + PartCrc::LEN..9 + 2 * PartCrc::LEN]),
                layers: bytes[FIXED..end]
                    .chunks_exact(Saved::LEN)
                    .map(Saved::from_bytes)
                    .collect(),
            });
            bytes = &bytes[end..];
        }
        all
    }
}

/// What the writer hands back: a save done, or why it failed.
type Outcome = Result<StepSaved, GenerateError>;

/// How a rank saves the depth pass's steps to the checkpoint the ranks
/// share (see the [module docs](self)). The ranks decide together which
/// steps they save.
pub(super) struct DepthSaver<'s> {
    checkpoint: Checkpoint,
    every: Duration,
    last_save: Instant,
    /// The CPU time the writer took for the last save.
    last_cost: &'s Mutex<Duration>,
    /// Win/loss layers the win/loss pass did not save: they go with the
    /// first save.
    layers: Vec<(u32, Vec<usize>, u64)>,
    /// `None` once the pass is over: the writer finishes and stops.
    to_writer: Option<mpsc::Sender<SaveJob>>,
    from_writer: mpsc::Receiver<Outcome>,
    /// Saves handed to the writer and not yet back.
    busy: usize,
    /// Set to have the writer drop the save under way.
    abort: &'s AtomicBool,
    /// Why this rank's writer stopped.
    failed: Option<GenerateError>,
    /// Rank 0: the ranks' parts of the steps and layers saved and not yet
    /// recorded, by rank.
    steps: BTreeMap<u8, Vec<Option<StepSaved>>>,
    layer_parts: BTreeMap<u32, Vec<Option<Saved>>>,
}

/// What a [`DepthSaver`]'s writer thread shares with it.
#[derive(Default)]
pub(super) struct Shared {
    last_cost: Mutex<Duration>,
    abort: AtomicBool,
}

impl<'s> DepthSaver<'s> {
    /// Starts the saves of this rank's `range` of the columns, their
    /// chunks' CRCs `loaded` from the checkpoint (`None`: a pass from its
    /// start, every chunk 0), with the writer thread spawned in `scope`;
    /// `winning` is the whole win/loss bitset, which the layers left
    /// unsaved are written from.
    pub(super) fn start<'scope, 'env: 'scope>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        unsaved: Unsaved,
        range: Columns<'env>,
        loaded: Option<Loaded>,
        winning: &'env [u64],
        shared: &'s Shared,
    ) -> DepthSaver<'s>
    where
        's: 'scope,
    {
        let crcs = match loaded {
            Some(loaded) => loaded.crcs,
            None => zero_crcs(&range),
        };
        let (to_writer, jobs) = mpsc::channel();
        let (saved, from_writer) = mpsc::channel();
        let writer = Writer {
            file: unsaved.checkpoint.depth_file(),
            blocks: unsaved.checkpoint.block_file().clone(),
            winning,
            range,
            crcs,
            shared,
        };
        scope.spawn(move || writer.run(&jobs, &saved));
        DepthSaver {
            checkpoint: unsaved.checkpoint,
            every: unsaved.every,
            last_save: unsaved.last_save,
            last_cost: &shared.last_cost,
            layers: unsaved.layers,
            to_writer: Some(to_writer),
            from_writer,
            busy: 0,
            abort: &shared.abort,
            failed: None,
            steps: BTreeMap::new(),
            layer_parts: BTreeMap::new(),
        }
    }

    /// Step `step` is done: this rank has taken in `taken` positions by
    /// it, and `dirty` marks its chunks changed since the last save. Hands
    /// the step to the writer when the ranks agree a save is due, and
    /// records the steps every rank has saved.
    pub(super) fn step_done(
        &mut self,
        step: u8,
        taken: u64,
        dirty: &[AtomicBool],
        ranks: &dyn Ranks,
    ) -> Result<(), GenerateError> {
        let saved: Vec<Outcome> = self.from_writer.try_iter().collect();
        self.busy -= saved.len();
        let cost = *self
            .last_cost
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let due = self.every.is_zero()
            || (self.busy == 0 && self.last_save.elapsed() >= self.every.max(cost * 10));
        if !self.sync_with(saved, due, ranks)? {
            return Ok(());
        }
        // The section is made before any rank writes into it.
        let begun = if ranks.rank() == 0 {
            self.checkpoint.begin_depth()
        } else {
            Ok(())
        };
        agree(ranks, begun)?;
        let chunks = dirty
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.swap(false, Relaxed).then_some(i))
            .collect();
        let job = SaveJob {
            step,
            taken,
            chunks,
            layers: std::mem::take(&mut self.layers),
        };
        self.last_save = Instant::now();
        if let Some(to_writer) = &self.to_writer {
            // A writer that stopped says why at the next sync.
            if to_writer.send(job).is_ok() {
                self.busy += 1;
            }
        }
        Ok(())
    }

    /// The pass is over (`cancelled`, or not): a pass cancelled waits for
    /// the saves handed over and records them; one that ended drops the
    /// save under way, unless every step is saved.
    pub(super) fn finish(
        mut self,
        cancelled: bool,
        ranks: &dyn Ranks,
    ) -> Result<(), GenerateError> {
        if !cancelled && !self.every.is_zero() {
            self.abort.store(true, Relaxed);
        }
        self.to_writer = None;
        // The writer's channel closes when it has saved everything.
        let saved: Vec<Outcome> = self.from_writer.iter().collect();
        self.sync_with(saved, false, ranks).map(|_| ())
    }

    /// Tells the other ranks the saves this rank has made since the last
    /// sync and whether it would save now (`due`); rank 0 records the
    /// steps (and layers) every rank has saved. Returns whether every rank
    /// would save now.
    fn sync_with(
        &mut self,
        saved: Vec<Outcome>,
        due: bool,
        ranks: &dyn Ranks,
    ) -> Result<bool, GenerateError> {
        let size = ranks.size();
        agree_saves(
            ranks,
            due,
            saved,
            self.failed.take(),
            |s, out| out.extend_from_slice(&s.to_bytes()),
            |all| self.record(all, size),
        )
    }

    /// Rank 0: takes in the saves of every rank (`all[rank]`) and
    /// records, in order, the layers and steps all have saved.
    fn record(&mut self, all: &[&[u8]], size: usize) -> Result<(), GenerateError> {
        for (r, m) in all.iter().enumerate() {
            for s in StepSaved::all_from_bytes(m) {
                for &layer in &s.layers {
                    self.layer_parts
                        .entry(layer.layer)
                        .or_insert_with(|| vec![None; size])[r] = Some(layer);
                }
                let step = s.step;
                self.steps.entry(step).or_insert_with(|| vec![None; size])[r] = Some(s);
            }
        }
        while let Some(entry) = self.steps.first_entry() {
            if entry.get().iter().any(Option::is_none) {
                break;
            }
            // The layers saved with the step, recorded first.
            record_layers(&mut self.checkpoint, &mut self.layer_parts)?;
            let (step, parts) = entry.remove_entry();
            let parts: Vec<StepSaved> = parts.into_iter().flatten().collect();
            let crc = |k: fn(&StepSaved) -> PartCrc| {
                PartCrc::combine(&parts.iter().map(k).collect::<Vec<_>>())
            };
            self.checkpoint.append_depth(DepthRecord {
                step: u32::from(step),
                taken: parts.iter().map(|s| s.taken).sum(),
                plies_crc: crc(|s| s.plies),
                best_crc: crc(|s| s.best),
            })?;
        }
        Ok(())
    }
}

/// A rank's writer thread: saves each step it is handed (and the layers
/// that go with it), syncs, and hands back the CRCs (or why it could not,
/// and stops).
struct Writer<'a, 's> {
    file: DepthFile,
    blocks: BlockFile,
    winning: &'a [u64],
    range: Columns<'a>,
    /// The masked CRCs of each chunk as last saved (or loaded).
    crcs: Vec<ChunkCrcs>,
    shared: &'s Shared,
}

impl Writer<'_, '_> {
    fn run(mut self, jobs: &mpsc::Receiver<SaveJob>, saved: &mpsc::Sender<Outcome>) {
        let mut direct = DirectWrites::open(self.file.path());
        let mut buffers = None;
        for job in jobs {
            if self.shared.abort.load(Relaxed) {
                return;
            }
            let start = thread_time();
            let outcome = self.save(&job, &mut direct, &mut buffers);
            *self
                .shared
                .last_cost
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = thread_time().saturating_sub(start);
            match outcome {
                // Dropped: the pass ended.
                Ok(None) => return,
                Ok(Some(s)) => {
                    let _ = saved.send(Ok(s));
                }
                Err(e) => {
                    let _ = saved.send(Err(e));
                    return;
                }
            }
        }
    }

    /// Saves `job`: its layers' blocks, its chunks masked at its step, and
    /// syncs them. `None` when the pass asked to drop it.
    fn save(
        &mut self,
        job: &SaveJob,
        direct: &mut DirectWrites,
        buffers: &mut Option<[MmapMut; 2]>,
    ) -> Result<Option<StepSaved>, GenerateError> {
        let n = self.blocks.block_bytes() / 8;
        let winning = self.winning;
        let mut layers = Vec::with_capacity(job.layers.len());
        for (layer, blocks, won) in &job.layers {
            let part = self.blocks.write_unsynced(blocks, &|b, buf| {
                for (word, bytes) in winning[b * n..][..n].iter().zip(buf.chunks_exact_mut(8)) {
                    bytes.copy_from_slice(&word.to_le_bytes());
                }
            })?;
            layers.push(Saved {
                layer: *layer,
                part,
                won: *won,
            });
        }
        let range = self.range;
        let run_bytes = RUN_CHUNKS * range.chunk_positions;
        let [plies_buf, best_buf] = match buffers {
            Some(b) => b,
            None => {
                let map = || MmapMut::map_anon(run_bytes).map_err(|e| self.file.io_error(e));
                buffers.insert([map()?, map()?])
            }
        };
        // Runs of consecutive chunks, a write of each column each.
        let mut at = 0;
        while at < job.chunks.len() {
            if self.shared.abort.load(Relaxed) {
                return Ok(None);
            }
            let first = job.chunks[at];
            let mut end = at + 1;
            while end < job.chunks.len()
                && end - at < RUN_CHUNKS
                && job.chunks[end] == first + (end - at)
            {
                end += 1;
            }
            // The best-move bytes run as the moves left do, or are none.
            let (mut len, mut best_len) = (0, 0);
            for &c in &job.chunks[at..end] {
                let chunk = lock(&range.chunks[c]);
                let (n, b) = (chunk.0.len(), chunk.1.len());
                plies_buf[len..len + n].copy_from_slice(chunk.0);
                best_buf[best_len..best_len + b].copy_from_slice(chunk.1);
                drop(chunk);
                let plies = &mut plies_buf[len..len + n];
                let best = &mut best_buf[best_len..best_len + b];
                mask(job.step, plies, best);
                self.crcs[c] = [&*plies, &*best].map(|b| PartCrc {
                    crc: crc32fast::hash(b),
                    len: b.len() as u64,
                });
                len += n;
                best_len += b;
            }
            let position = range.position_of(first);
            let file = self.file.file();
            direct
                .write_all_at(file, &plies_buf[..len], self.file.plies_at(position))
                .and_then(|()| match best_len {
                    0 => Ok(()),
                    _ => direct.write_all_at(
                        file,
                        &best_buf[..best_len],
                        self.file.best_at(position),
                    ),
                })
                .map_err(|e| self.file.io_error(e))?;
            at = end;
        }
        self.file
            .file()
            .sync_data()
            .map_err(|e| self.file.io_error(e))?;
        let [plies, best] = combined(&self.crcs);
        Ok(Some(StepSaved {
            step: job.step,
            taken: job.taken,
            plies,
            best,
            layers,
        }))
    }
}

/// The CPU time of the calling thread, where the system says; otherwise
/// the time since an arbitrary instant (the cost of a save is then its
/// whole time).
fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write the time into.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}
