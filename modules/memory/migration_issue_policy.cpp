#include "modules/memory/migration_issue_policy.h"

namespace ohmvp {

std::unique_ptr<MigrationIssuePolicy> make_migration_issue_policy(MigrationIssueKind kind) {
  if (kind == MigrationIssueKind::with_writes) return std::make_unique<MigrationWithWrites>();
  return std::make_unique<ImmediateMigration>();
}

}  // namespace ohmvp
