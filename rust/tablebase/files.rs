//! The table files, read with at most a given number of them open at once (python-chess's
//! `max_fds`). A table set of six or seven pieces has more files than a process may
//! usually hold open (1,024 by default on Linux), and the prober opens each table when it
//! is first probed and would keep it open: here a table's file is opened when it is read
//! and stays open while it is among the most recently read ones; the least recently read
//! is closed when one more is needed. The table's decoded header stays with the prober,
//! so a table whose file was closed is only opened again, not read again.

use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};
use shakmaty_syzygy::{Syzygy, Tablebase};

/// The crate's tables of a variant, reading their files with at most `open_files` of
/// them open (None: no limit, each kept open once read), and the files' keeper.
pub(super) fn new_tables<S: shakmaty::Position + Clone + Syzygy>(
    open_files: Option<usize>,
) -> (Tablebase<S>, Option<Arc<LimitedFiles>>) {
    match open_files {
        Some(limit) => {
            let files = Arc::new(LimitedFiles::new(limit));
            (Tablebase::with_filesystem(files.clone()), Some(files))
        }
        None => (Tablebase::new(), None),
    }
}

/// The open files, by the id of the table file they belong to, each with when it was
/// last read (a counter).
#[derive(Default)]
struct OpenFiles {
    files: HashMap<u64, (Arc<File>, u64)>,
    clock: u64,
}

/// A filesystem whose files keep at most `limit` open at once.
pub(super) struct LimitedFiles {
    limit: Arc<AtomicUsize>,
    open: Arc<Mutex<OpenFiles>>,
    next_id: AtomicU64,
}

impl LimitedFiles {
    /// At most `limit` files open at once (at least one).
    pub(super) fn new(limit: usize) -> LimitedFiles {
        LimitedFiles {
            limit: Arc::new(AtomicUsize::new(limit.max(1))),
            open: Arc::default(),
            next_id: AtomicU64::new(0),
        }
    }

    /// A new limit (at least one), the least recently read files closed now to keep it.
    pub(super) fn set_limit(&self, limit: usize) {
        let limit = limit.max(1);
        self.limit.store(limit, Ordering::Relaxed);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.close_down_to(limit);
    }
}

impl OpenFiles {
    /// Closes the least recently read files until at most `keep` are open.
    fn close_down_to(&mut self, keep: usize) {
        while self.files.len() > keep {
            let oldest = self.files.iter().min_by_key(|(_, (_, used))| *used).map(|(id, _)| *id);
            match oldest {
                Some(id) => self.files.remove(&id),
                None => break,
            };
        }
    }
}

impl Filesystem for LimitedFiles {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        let meta = path.metadata()?;
        if !meta.is_file() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
        }
        Ok(meta.len())
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(path)?.map(|entry| entry.map(|e| e.path())).collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        let file = PooledFile {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            path: path.to_path_buf(),
            limit: Arc::clone(&self.limit),
            open: Arc::clone(&self.open),
        };
        file.file()?; // the prober reads the header at once: fail here if it cannot be opened
        Ok(Box::new(file))
    }
}

/// One table file, opened whenever it is read and not open.
struct PooledFile {
    id: u64,
    path: PathBuf,
    limit: Arc<AtomicUsize>,
    open: Arc<Mutex<OpenFiles>>,
}

impl PooledFile {
    /// The open file (opened now if it was closed), marked as the most recently read. A
    /// reader holds its own handle: closing the pool's does not cut a read short.
    fn file(&self) -> io::Result<Arc<File>> {
        // A panic elsewhere while the lock was held leaves the map whole: go on with it.
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.clock += 1;
        let now = open.clock;
        if let Some((file, used)) = open.files.get_mut(&self.id) {
            *used = now;
            return Ok(Arc::clone(file));
        }
        let file = Arc::new(File::open(&self.path)?);
        open.close_down_to(self.limit.load(Ordering::Relaxed) - 1);
        open.files.insert(self.id, (Arc::clone(&file), now));
        Ok(file)
    }

    /// Whether the file is open now (for the tests).
    #[cfg(test)]
    fn is_open(&self) -> bool {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).files.contains_key(&self.id)
    }
}

impl Drop for PooledFile {
    fn drop(&mut self) {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).files.remove(&self.id);
    }
}

impl RandomAccessFile for PooledFile {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        self.file()?.read_at(buf, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_files(n: usize) -> (PathBuf, Vec<PathBuf>) {
        let dir = std::env::temp_dir().join(format!("kibitz-files-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let paths = (0..n)
            .map(|i| {
                let p = dir.join(format!("f{i}"));
                std::fs::write(&p, [i as u8; 8]).unwrap();
                p
            })
            .collect();
        (dir, paths)
    }

    #[test]
    fn at_most_the_limit_is_open_and_the_least_recently_read_closes_first() {
        let (dir, paths) = temp_files(4);
        let fs = LimitedFiles::new(2);
        let files: Vec<_> = paths.iter().map(|p| fs.open(p).unwrap()).collect();
        let mut buf = [0u8; 1];
        for (i, f) in files.iter().enumerate() {
            f.read_at(&mut buf, 3, ReadHint::Data).unwrap();
            assert_eq!(buf[0], i as u8, "each file reads its own bytes");
        }
        let open = fs.open.lock().unwrap();
        assert_eq!(open.files.len(), 2);
        drop(open);
        // Files 2 and 3 were read last; reading 0 again reopens it and closes 2.
        files[0].read_at(&mut buf, 0, ReadHint::Data).unwrap();
        assert_eq!(buf[0], 0);
        let mut ids: Vec<u64> = fs.open.lock().unwrap().files.keys().copied().collect();
        ids.sort();
        assert_eq!(ids, [0, 3]);
        fs.set_limit(1); // the least recently read (3) is closed at once
        assert_eq!(fs.open.lock().unwrap().files.keys().copied().collect::<Vec<_>>(), [0]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_dropped_file_leaves_the_pool() {
        let (dir, paths) = temp_files(2);
        let fs = LimitedFiles::new(8);
        let file =
            PooledFile { id: 7, path: paths[0].clone(), limit: Arc::clone(&fs.limit), open: Arc::clone(&fs.open) };
        file.file().unwrap();
        assert!(file.is_open());
        drop(file);
        assert!(fs.open.lock().unwrap().files.is_empty());
        assert!(fs.open(&dir.join("missing")).is_err(), "a missing file fails when opened");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
