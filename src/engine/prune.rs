//! `trash prune` as an operation: what reset and remove kept in the Trash,
//! and the pre-images operations kept under `.sessionctl/ops/`, deleted for
//! good once older than a cut-off. Recorded as irreversible (`undo`
//! refuses it); run with the store lock, and never while Agenvoy runs (it
//! moves its own things into the same Trash).

use chrono::{DateTime, Utc};

use crate::engine::batch::{Needs, Operation, StoreView, Stores, Target};
use crate::error::Result;
use crate::store::layout::DataRoot;
use crate::store::oplog::Intent;
use crate::store::trash::{self, EntryInfo};

pub struct PruneTrash<'a> {
    pub root: &'a DataRoot,
    /// Entries older than this go.
    pub cutoff: DateTime<Utc>,
    /// The newest this many entries of each session stay.
    pub keep_last: usize,
}

/// The one target of `trash prune`.
pub const TRASH: &str = "trash";

impl PruneTrash<'_> {
    pub fn target(&self) -> Target {
        Target::shared(TRASH)
    }

    /// What would be deleted now.
    fn doomed(&self) -> Result<Vec<EntryInfo>> {
        let entries = trash::list(self.root)?;
        let mut doomed = trash::to_prune(&entries, self.cutoff, self.keep_last);
        // the pre-images operations kept age out with the Trash
        doomed.extend(
            trash::preimages(self.root)?
                .into_iter()
                .filter(|p| p.time < self.cutoff),
        );
        Ok(doomed)
    }
}

impl Operation for PruneTrash<'_> {
    type Plan = Vec<EntryInfo>;
    type Report = Vec<EntryInfo>;

    fn needs(&self) -> Needs {
        Needs {
            store_lock: true,
            ..Needs::default()
        }
    }

    fn intent(&self) -> Intent {
        Intent {
            irreversible: true,
            ..Intent::of("trash prune")
        }
    }

    fn replans_under_locks(&self) -> bool {
        true
    }

    fn plan(&self, _: &Target, _: &dyn StoreView) -> Result<Vec<EntryInfo>> {
        self.doomed()
    }

    fn has_work(&self, plan: &Vec<EntryInfo>) -> bool {
        !plan.is_empty()
    }

    fn summary(&self, plan: &Vec<EntryInfo>) -> Option<String> {
        let total: u64 = plan.iter().map(|e| e.bytes).sum();
        Some(format!(
            "{} trash entr{} ({total} bytes)",
            plan.len(),
            if plan.len() == 1 { "y" } else { "ies" },
        ))
    }

    fn preview(&self, _: &Target, plan: &Vec<EntryInfo>, _: bool) -> Vec<EntryInfo> {
        plan.clone()
    }

    fn apply(
        &self,
        _: &Target,
        doomed: Vec<EntryInfo>,
        stores: &mut Stores<'_>,
    ) -> Result<Vec<EntryInfo>> {
        for e in &doomed {
            trash::delete(stores.root, &e.path)?;
            // an entry Agenvoy made, or an operation's pre-images: its name
            let session = e.session.clone().unwrap_or_else(|| e.name.clone());
            stores.journal.record(&session, "prune", None)?;
        }
        Ok(doomed)
    }
}
