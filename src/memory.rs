//! Memory sizes, and what the system says about memory.
//!
//! [`ByteSize`] is how every option of boardbase takes and shows a size
//! (`boardbase generate --memory`, `boardbase serve --make-memory`,
//! Python's `memory=`), and how errors and summaries print one.
//! [`available_memory`] is the default limit of a generation job and
//! [`peak_memory`] the figure its summary reports.

use core::fmt;

/// A number of bytes, displayed with a binary unit (`512 B`, `1.5 KiB`,
/// `8.00 GiB`).
///
/// ```
/// use boardbase::memory::ByteSize;
/// assert_eq!(ByteSize(512).to_string(), "512 B");
/// assert_eq!(ByteSize(1536).to_string(), "1.50 KiB");
/// assert_eq!(ByteSize(8 << 30).to_string(), "8.00 GiB");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ByteSize(pub u64);

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        if self.0 < 1024 {
            return write!(f, "{} B", self.0);
        }
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        write!(f, "{value:.2} {}", UNITS[unit])
    }
}

impl std::str::FromStr for ByteSize {
    type Err = String;

    /// A memory size as every option of boardbase takes it: a number
    /// (decimals allowed) and a unit, `K`/`M`/`G`/`T` or `KiB`/`MiB`/`GiB`/
    /// `TiB` (powers of 1024), `KB`/`MB`/`GB`/`TB` (powers of 1000), `B`
    /// (bytes); a bare number is MiB.
    ///
    /// ```
    /// use boardbase::memory::ByteSize;
    /// assert_eq!("9G".parse(), Ok(ByteSize(9 << 30)));
    /// assert_eq!("512M".parse(), Ok(ByteSize(512 << 20)));
    /// assert_eq!("512".parse(), Ok(ByteSize(512 << 20))); // MiB
    /// assert_eq!("1.5GiB".parse(), Ok(ByteSize(3 << 29)));
    /// assert_eq!("2GB".parse(), Ok(ByteSize(2_000_000_000)));
    /// assert_eq!("4096B".parse(), Ok(ByteSize(4096)));
    /// assert!("lots".parse::<ByteSize>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<ByteSize, String> {
        let bad = || {
            format!("'{text}' is not a memory size like 8G, 512M or 9GiB (a bare number is MiB)")
        };
        let t = text.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let value: f64 = number.parse().map_err(|_| bad())?;
        let multiplier: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "b" => 1.0,
            "k" | "kib" => 1024.0,
            "" | "m" | "mib" => 1024.0 * 1024.0,
            "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
            "t" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
            "kb" => 1e3,
            "mb" => 1e6,
            "gb" => 1e9,
            "tb" => 1e12,
            _ => return Err(bad()),
        };
        let bytes = value * multiplier;
        if !bytes.is_finite() || bytes >= u64::MAX as f64 {
            return Err(bad());
        }
        Ok(ByteSize(bytes.round() as u64))
    }
}

/// The memory available for a job, where the system says (Linux:
/// `MemAvailable` of `/proc/meminfo`), else `None`.
pub fn available_memory() -> Option<u64> {
    proc_kib("/proc/meminfo", "MemAvailable:")
}

/// The kernel's high-water mark of this process's resident set, in bytes:
/// `VmHWM` of `/proc/self/status`, the figure `getrusage` reports as
/// `ru_maxrss` (Linux; `None` elsewhere).
pub fn peak_memory() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}

/// The bytes of the line `key  N kB` of a `/proc` file.
fn proc_kib(file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}
