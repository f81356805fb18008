//! `mpirun -np N boardbase generate euler RxC`: one job over the ranks of
//! an MPI job (the `mpi` feature), through the library's
//! [`Ranks`](boardbase::ranks::Ranks) over rsmpi. Rank 0 speaks; the others
//! say only their own failures.

use std::ffi::OsString;
use std::os::raw::c_int;

use boardbase::generate::{Cancel, GenerateError, Progress};
use boardbase::memory::ByteSize;
use boardbase::ranks::Ranks;
use boardbase::tables::euler::winloss::{WinLossSolver, layer_members};
use boardbase::tables::shape::Shape;
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use super::Failure;
use super::Output;
use super::bar::PhaseBar;
use super::generate::{
    GenerateArgs, cancel_on_signals, interrupted_or, job_of, plan_line, write_report,
};

/// The ranks of this MPI job. MPI is finalized when it is dropped.
pub struct MpiRanks {
    world: SimpleCommunicator,
    local: usize,
    // Dropped last: finalizes MPI.
    _universe: Universe,
}

impl MpiRanks {
    /// Initializes MPI (only the main thread calls it) and makes a panic on
    /// any thread of any rank end the whole job: an unwinding panic would
    /// leave the other ranks waiting in a collective for ever. The process
    /// aborts (a rayon thread may not call MPI), and mpirun, seeing a rank
    /// die, ends the others.
    fn start() -> Option<MpiRanks> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)?;
        let world = universe.world();
        let here = world.split_shared(world.rank());
        let local = here.size().max(1) as usize;
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            report(info);
            std::process::abort();
        }));
        Some(MpiRanks {
            world,
            local,
            _universe: universe,
        })
    }
}

/// A count or offset as MPI takes it (a C `int`): past 2^31 - 1 elements
/// the job stops (a round's exchange is bounded far below).
fn count(n: usize) -> c_int {
    c_int::try_from(n).expect("an MPI count under 2^31")
}

fn offsets(counts: &[c_int]) -> Vec<c_int> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let here = *at;
            *at += c;
            Some(here)
        })
        .collect()
}

impl Ranks for MpiRanks {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn local_size(&self) -> usize {
        self.local
    }

    fn swap_counts(&self, counts: &[usize]) -> Vec<usize> {
        let counts: Vec<c_int> = counts.iter().map(|&c| count(c)).collect();
        let mut theirs = vec![0 as c_int; counts.len()];
        self.world.all_to_all_into(&counts[..], &mut theirs[..]);
        count(theirs.iter().map(|&c| c as usize).sum());
        theirs.iter().map(|&c| c as usize).collect()
    }

    fn exchange_known(
        &self,
        send: &[u64],
        counts: &[usize],
        recv_counts: &[usize],
        recv: &mut [u64],
    ) {
        let counts: Vec<c_int> = counts.iter().map(|&c| count(c)).collect();
        let theirs: Vec<c_int> = recv_counts.iter().map(|&c| count(c)).collect();
        let total = theirs.iter().map(|&c| c as usize).sum::<usize>();
        let (send_at, recv_at) = (offsets(&counts), offsets(&theirs));
        self.world.all_to_all_varcount_into(
            &mpi::datatype::Partition::new(send, &counts[..], &send_at[..]),
            &mut PartitionMut::new(&mut recv[..total], &theirs[..], &recv_at[..]),
        );
    }

    fn sum(&self, value: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&value, &mut out, SystemOperation::sum());
        out
    }

    fn max(&self, value: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&value, &mut out, SystemOperation::max());
        out
    }

    fn or_words(&self, words: &mut [u64]) {
        // Through a buffer of 8 MiB: rsmpi has no in-place reduction.
        let mut mine = vec![0u64; words.len().min(1 << 20)];
        for chunk in words.chunks_mut(1 << 20) {
            let mine = &mut mine[..chunk.len()];
            mine.copy_from_slice(chunk);
            self.world
                .all_reduce_into(&mine[..], chunk, SystemOperation::bitwise_or());
        }
    }

    fn gather_bytes(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let len = count(bytes.len());
        let mut lens = vec![0 as c_int; self.size()];
        self.world.all_gather_into(&len, &mut lens[..]);
        count(lens.iter().map(|&l| l as usize).sum());
        let mut all = vec![0u8; lens.iter().map(|&l| l as usize).sum()];
        let at = offsets(&lens);
        self.world.all_gather_varcount_into(
            bytes,
            &mut PartitionMut::new(&mut all[..], &lens[..], &at[..]),
        );
        lens.iter()
            .zip(&at)
            .map(|(&l, &a)| all[a as usize..][..l as usize].to_vec())
            .collect()
    }
}

/// `boardbase generate` as one rank of an MPI job started by `launcher`.
pub fn generate(args: &GenerateArgs, out: &mut Output, launcher: &str) -> Result<(), Failure> {
    let Some(ranks) = MpiRanks::start() else {
        return Err(Failure::Usage(format!(
            "started by {launcher}, but MPI could not be initialized"
        )));
    };
    // Each rank says why it failed before any rank exits: mpirun ends the
    // whole job as soon as one rank exits with a failure, which could cut
    // another's message short.
    let result = generate_on(args, out, &ranks).map_err(|f| Failure::Silent(super::say(f)));
    ranks.sum(0);
    // Every rank finalizes MPI (dropping `ranks`) before it exits.
    drop(ranks);
    result
}

/// A result each rank found for itself, agreed by every rank (collective).
/// Where rank 0 failed, it says why; each other rank that failed says why
/// too unless its message is rank 0's (ranks that plan with the same memory
/// and disk fail alike: one line says it). Where only others failed, each
/// says why, and rank 0 names the first.
fn agreed<T>(ranks: &MpiRanks, result: Result<T, GenerateError>) -> Result<T, Failure> {
    let root = ranks.rank() == 0;
    // A failure flag, then the message.
    let mut mine = vec![u8::from(result.is_err())];
    if let Err(e) = &result {
        mine.extend_from_slice(e.to_string().as_bytes());
    }
    let all = ranks.gather_bytes(&mine);
    let first = all.iter().position(|m| m.first() != Some(&0));
    match (first, result) {
        (None, Ok(value)) => Ok(value),
        (Some(_), Ok(_)) if !root => Err(Failure::Silent(1)),
        (Some(rank), Ok(_)) => Err(super::generate::failure(GenerateError::OtherRank { rank })),
        (Some(0), Err(e)) if !root && all[0] == mine => {
            Err(Failure::Silent(if e.is_usage() { 2 } else { 1 }))
        }
        (_, Err(e)) => Err(super::generate::failure(e)),
    }
}

fn generate_on(args: &GenerateArgs, out: &mut Output, ranks: &MpiRanks) -> Result<(), Failure> {
    let root = ranks.rank() == 0;
    if let Some(model) = args.model() {
        if ranks.size() == 1 {
            return super::generate::run_game(args, model, out);
        }
        if !root {
            return Err(Failure::Silent(2));
        }
        return Err(Failure::Usage(format!(
            "a {} table is made by one process, not {}: run `boardbase generate {}` without mpirun",
            model.game,
            ranks.size(),
            model.game
        )));
    }
    args.no_game_options()?;
    // Each rank parses its own command line: they must agree, or each would
    // make a different job.
    let line = |args: Vec<OsString>| {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("\0")
    };
    let mine = line(std::env::args_os().collect());
    let all = ranks.gather_bytes(mine.as_bytes());
    if let Some(other) = all.iter().position(|a| a != &all[0]) {
        if !root {
            return Err(Failure::Silent(2));
        }
        let show = |bytes: &[u8]| String::from_utf8_lossy(bytes).replace('\0', " ");
        return Err(Failure::Usage(format!(
            "the ranks of the job were started with different arguments: rank 0 `{}`, rank {other} `{}`",
            show(&all[0]),
            show(&all[other])
        )));
    }

    // One rank is a job of one process, checkpoint and all. The Euler pass
    // and the file writer are the same either way (`Plan::run` is
    // `Plan::run_ranks` on `Solo`, and a table file is written by the
    // ranks' writer on one rank), so all that one rank takes from
    // `run_alone` rather than from the ranks' path below is the command's
    // face, and the ranks' path cannot give it: `run_ranks` makes Euler
    // tables only (a Flip table is made by one process), and a job of one
    // process prints its plan line without the ranks' count and no line of
    // bytes exchanged, and notes the temporary files of killed runs;
    // tests/mpi.rs holds `mpirun -np 1` to the one process's output.
    if ranks.size() == 1 {
        return super::generate::run_alone(args, out);
    }
    // This machine's cores are shared between its ranks.
    let threads = match args.threads() {
        Some(n) => n,
        None => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            (cores / ranks.local_size()).max(1)
        }
    };
    // The one pool of this process, built once: its threads never call MPI.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("boardbase-generate-{i}"))
        .build_global();
    let job = boardbase::generate::Job {
        ranks: ranks.size(),
        local_ranks: ranks.local_size(),
        threads: Some(threads),
        ..job_of(args)
    };
    let quiet = |e: GenerateError| -> Failure {
        match e {
            GenerateError::OtherRank { .. } if !root => Failure::Silent(1),
            e if e.is_usage() && !root => Failure::Silent(2),
            e => super::generate::failure(e),
        }
    };
    // Each rank plans and checks with its own memory and disk.
    let plan = agreed(ranks, job.plan())?;
    if root {
        eprintln!(
            "{} ranks ({} on this machine, {threads} threads each); each rank: {}",
            ranks.size(),
            ranks.local_size(),
            plan_line(&plan)
        );
        if let Some(resume) = &plan.resume {
            eprintln!("{}", super::generate::resuming(resume));
        }
    }
    // mpirun passes SIGINT and SIGTERM on to every rank: they stop together.
    let cancel = Cancel::new();
    let signal = cancel_on_signals(&plan.path, &cancel, root);
    agreed(ranks, plan.check())?;
    let bar = root.then(PhaseBar::new);
    let progress = |p: Progress| {
        signal.saw(&p);
        if let Some(bar) = &bar {
            bar.update(p.phase.name(), p.done, p.total, p.phase.counts_bytes());
        }
    };
    let run = match plan.run_ranks(ranks, progress, &cancel) {
        Ok(run) => run,
        Err(GenerateError::NotWritten { .. }) if !root => return Err(Failure::Silent(1)),
        Err(e) => return Err(interrupted_or(e, &signal, quiet)),
    };
    if let Some(bar) = bar {
        bar.finish();
    }
    if root {
        // A job by class fetches no blocks: its ranks OR each layer whole.
        if !run.exchanged.is_empty() {
            eprintln!("{}", exchanged_line(&run.exchanged, args.shape()));
        }
        write_report(args, out, &run.report)?;
    }
    Ok(())
}

/// What the ranks sent one another: in all, and per layer, in bytes a
/// position of the table and of the layer (what docs/scaling.md
/// extrapolates from).
fn exchanged_line(exchanged: &[u64], shape: Shape) -> String {
    let wl = WinLossSolver::new(shape);
    let per_block = wl.block_positions() as f64;
    let total: u64 = exchanged.iter().sum();
    let top = wl.top_bits();
    let layers: Vec<String> = exchanged
        .iter()
        .enumerate()
        .map(|(i, &bytes)| {
            let blocks = layer_members(top, top - i as u32).count() as f64;
            format!("{:.3}", bytes as f64 / (blocks * per_block))
        })
        .collect();
    format!(
        "exchanged between ranks: {} ({:.3} bytes a position); by layer, bytes a position of the layer: {}",
        ByteSize(total),
        total as f64 / (1u64 << shape.cells()) as f64,
        layers.join(" ")
    )
}
