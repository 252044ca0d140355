//! The log as replay opened it: values are read back from this file
//! descriptor by offset (`pread`) when asked for, so the log's bytes are
//! never all in memory. The descriptor keeps the inode: ToriiDB's and our
//! rewrites replace the file by rename, and appends only add bytes after
//! the ones we indexed, so an offset found at replay stays valid.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// How much of the log one read brings in when many lines are wanted.
const WINDOW: u64 = 4 << 20;

#[derive(Debug, Default)]
pub(super) struct LogFile {
    /// None: there was no log (an empty database).
    file: Option<File>,
    /// The path named in errors.
    shown: PathBuf,
}

impl LogFile {
    pub fn new(file: Option<File>, shown: &Path) -> LogFile {
        LogFile {
            file,
            shown: shown.to_path_buf(),
        }
    }

    /// The file's metadata now (`None` without a file).
    pub fn meta(&self) -> Result<Option<std::fs::Metadata>> {
        self.file
            .as_ref()
            .map(|f| f.metadata().map_err(|e| Error::read(&self.shown, e)))
            .transpose()
    }

    /// The file's size now (0 without a file).
    pub fn len(&self) -> Result<u64> {
        match &self.file {
            Some(f) => Ok(f.metadata().map_err(|e| Error::read(&self.shown, e))?.len()),
            None => Ok(0),
        }
    }

    /// Fill `buf` from `offset`, or as much as the file holds (a short
    /// result only at its end). Returns how many bytes were read.
    pub fn read_upto(&self, buf: &mut [u8], offset: u64) -> Result<usize> {
        let Some(file) = &self.file else {
            return Ok(0);
        };
        let mut done = 0;
        while done < buf.len() {
            match file.read_at(&mut buf[done..], offset + done as u64) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::read(&self.shown, e)),
            }
        }
        Ok(done)
    }

    /// The `len` bytes at `offset`: a line replay indexed. Fewer bytes
    /// mean the file was cut short in place since, which neither ToriiDB
    /// nor we ever do: a data error, nothing is guessed.
    pub fn read_line(&self, offset: u64, len: u32) -> Result<Vec<u8>> {
        let mut buf = vec![0; len as usize];
        self.read_exact(&mut buf, offset)?;
        Ok(buf)
    }

    fn read_exact(&self, buf: &mut [u8], offset: u64) -> Result<()> {
        if self.read_upto(buf, offset)? < buf.len() {
            return Err(self.vanished());
        }
        Ok(())
    }

    fn vanished(&self) -> Error {
        Error::data(
            &self.shown,
            "was cut short while in use: a record read a moment ago is no longer there",
        )
        .with_hint("another program truncated the log in place; run the command again")
    }

    /// Visit the lines at `spans` ((offset, length) each, any order) in
    /// file order, reading the log sequentially a window at a time rather
    /// than one `pread` per line. `f` gets the index of the span in
    /// `spans` and its bytes.
    pub fn for_each_line(
        &self,
        spans: &[(u64, u32)],
        mut f: impl FnMut(usize, &[u8]) -> Result<()>,
    ) -> Result<()> {
        let mut order: Vec<usize> = (0..spans.len()).collect();
        order.sort_unstable_by_key(|&i| spans[i].0);
        let end = |i: usize| spans[i].0 + u64::from(spans[i].1);
        let mut buf = Vec::new();
        let mut next = 0;
        while next < order.len() {
            // One read from this line to the end of the last line that
            // still fits the window (at least this one line): sparse lines
            // do not drag whole windows in, dense ones share one read.
            let start = spans[order[next]].0;
            let mut stop = next + 1;
            let mut until = end(order[next]);
            while stop < order.len() && end(order[stop]) <= start + WINDOW {
                until = until.max(end(order[stop]));
                stop += 1;
            }
            buf.resize((until - start) as usize, 0);
            self.read_exact(&mut buf, start)?;
            for &i in &order[next..stop] {
                let from = (spans[i].0 - start) as usize;
                f(i, &buf[from..from + spans[i].1 as usize])?;
            }
            next = stop;
        }
        Ok(())
    }
}
