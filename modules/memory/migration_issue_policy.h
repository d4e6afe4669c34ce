#pragma once

#include <cstdint>
#include <memory>

namespace ohmvp {

enum class MigrationIssueKind { immediate, with_writes };

// What the policy sees when a swap has a transfer to send.
struct MigrationIssueState {
  uint32_t reads_in_flight = 0;  // front reads sent to DRAM or XPoint and not yet answered
  uint32_t write_tokens = 0;     // transfers front writes have made room for
  bool has_waiters = false;      // requests wait for this swap
};

// Planar mode: whether a swap's next transfer (a burst read or written in DRAM or XPoint) may go
// out now. Ohm-GPU hides migrations from latency-critical reads by issuing them with write
// requests, in the background (Section VI, Ohm-WOM planar).
class MigrationIssuePolicy {
 public:
  virtual ~MigrationIssuePolicy() = default;
  virtual bool may_issue(const MigrationIssueState& state) const = 0;
  // Whether a transfer issued in `state` uses up a write token.
  virtual bool takes_write_token(const MigrationIssueState& state) const = 0;
  // Transfers each front write makes room for (0: writes do not matter).
  virtual uint32_t tokens_per_write() const = 0;
};

// Every transfer goes out at once.
class ImmediateMigration : public MigrationIssuePolicy {
 public:
  bool may_issue(const MigrationIssueState&) const override { return true; }
  bool takes_write_token(const MigrationIssueState&) const override { return false; }
  uint32_t tokens_per_write() const override { return 0; }
};

// While front reads are in flight a transfer goes out only alongside a front write (each write
// makes room for one burst in each device: two transfers, a modelling choice), unless requests
// wait for the swap (then they are the latency-critical ones). With no read in flight it goes
// out at once.
class MigrationWithWrites : public MigrationIssuePolicy {
 public:
  bool may_issue(const MigrationIssueState& s) const override {
    return s.has_waiters || s.reads_in_flight == 0 || s.write_tokens > 0;
  }
  bool takes_write_token(const MigrationIssueState& s) const override {
    return !s.has_waiters && s.reads_in_flight != 0;
  }
  uint32_t tokens_per_write() const override { return 2; }
};

std::unique_ptr<MigrationIssuePolicy> make_migration_issue_policy(MigrationIssueKind kind);

}  // namespace ohmvp
