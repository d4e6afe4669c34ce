#include <catch2/catch.hpp>

#include <vector>

#include "modules/memory/bank_machine.h"
#include "modules/memory/page_policy.h"

using namespace ohmvp;

namespace {

using C = DdrCommand;

ControllerRequest request(uint32_t row, bool is_write, uint64_t burst_address = 0) {
  ControllerRequest r;
  r.address.row = Row{row};
  r.is_write = is_write;
  r.burst_address = burst_address;
  return r;
}

}  // namespace

TEST_CASE("bank machine: a closed bank needs ACT") {
  BankMachine bank;
  CHECK_FALSE(bank.is_open());
  CHECK_FALSE(bank.has_requests());
  const ControllerRequest read = request(3, false);
  const ControllerRequest write = request(3, true);
  CHECK(bank.next_command(read, false) == C::ACT);
  CHECK(bank.next_command(write, true) == C::ACT);
}

TEST_CASE("bank machine: a row hit gets its column command, auto-precharge as asked") {
  BankMachine bank;
  bank.apply(C::ACT, Row{3});
  REQUIRE(bank.is_open());
  CHECK(bank.open_row() == Row{3});
  CHECK(bank.next_command(request(3, false), false) == C::RD);
  CHECK(bank.next_command(request(3, false), true) == C::RDA);
  CHECK(bank.next_command(request(3, true), false) == C::WR);
  CHECK(bank.next_command(request(3, true), true) == C::WRA);
}

TEST_CASE("bank machine: a row conflict needs PRE") {
  BankMachine bank;
  bank.apply(C::ACT, Row{3});
  CHECK(bank.next_command(request(4, false), false) == C::PRE);
  CHECK(bank.next_command(request(4, true), true) == C::PRE);
}

TEST_CASE("bank machine: apply opens and closes the row") {
  BankMachine bank;
  bank.apply(C::ACT, Row{9});
  SECTION("RD and WR keep the row open") {
    bank.apply(C::RD, Row{9});
    bank.apply(C::WR, Row{9});
    CHECK(bank.is_open());
    CHECK(bank.open_row() == Row{9});
  }
  for (C closing : {C::PRE, C::PREA, C::RDA, C::WRA, C::REF}) {
    DYNAMIC_SECTION(to_string(closing) << " closes the row") {
      bank.apply(closing, Row{9});
      CHECK_FALSE(bank.is_open());
      CHECK(bank.next_command(request(9, false), false) == C::ACT);
    }
  }
  SECTION("ACT after PRE opens the new row") {
    bank.apply(C::PRE, Row{9});
    bank.apply(C::ACT, Row{2});
    CHECK(bank.open_row() == Row{2});
    CHECK(bank.next_command(request(2, false), false) == C::RD);
  }
}

TEST_CASE("bank machine: queues hold reads and writes apart, in arrival order") {
  BankMachine bank;
  ControllerRequest r0 = request(1, false, 0x1000);
  ControllerRequest w0 = request(1, true, 0x2000);
  ControllerRequest r1 = request(2, false, 0x3000);
  bank.enqueue(&r0);
  bank.enqueue(&w0);
  bank.enqueue(&r1);
  CHECK(bank.has_requests());
  CHECK(bank.reads() == std::vector<ControllerRequest*>{&r0, &r1});
  CHECK(bank.writes() == std::vector<ControllerRequest*>{&w0});
  CHECK(&bank.queue(false) == &bank.reads());
  CHECK(&bank.queue(true) == &bank.writes());
  bank.remove(false, 0);
  CHECK(bank.reads() == std::vector<ControllerRequest*>{&r1});
  bank.remove(true, 0);
  bank.remove(false, 0);
  CHECK_FALSE(bank.has_requests());
}

TEST_CASE("bank machine: may_hold never misses a queued burst") {
  BankMachine bank;
  std::vector<ControllerRequest> requests;
  for (uint64_t i = 0; i < 200; ++i) requests.push_back(request(0, i % 3 == 0, i * 64 * 37));
  for (ControllerRequest& r : requests) bank.enqueue(&r);
  for (const ControllerRequest& r : requests) CHECK(bank.may_hold(r.burst_address));
  // Remove all but one write: the filter may still say yes for others, never no for it.
  while (!bank.reads().empty()) bank.remove(false, 0);
  while (bank.writes().size() > 1) bank.remove(true, 0);
  CHECK(bank.may_hold(bank.writes()[0]->burst_address));
  bank.remove(true, 0);
  for (const ControllerRequest& r : requests) CHECK_FALSE(bank.may_hold(r.burst_address));
}

TEST_CASE("bank machine: a remembered choice is forgotten when the queue or the state changes") {
  BankMachine bank;
  ControllerRequest r0 = request(1, false);
  auto remember = [&] {
    bank.choice(false).known = true;
    bank.choice(true).known = true;
  };
  remember();
  bank.enqueue(&r0);
  CHECK_FALSE(bank.choice(false).known);
  CHECK_FALSE(bank.choice(true).known);
  remember();
  bank.apply(C::ACT, Row{1});
  CHECK_FALSE(bank.choice(false).known);
  remember();
  bank.remove(false, 0);
  CHECK_FALSE(bank.choice(true).known);
}

TEST_CASE("page policy: open never and closed always auto-precharge") {
  const ControllerRequest served = request(1, false);
  const std::vector<ControllerRequest*> none;
  CHECK_FALSE(OpenPagePolicy().auto_precharge(served, none, none));
  CHECK(ClosedPagePolicy().auto_precharge(served, none, none));
}

TEST_CASE("page policy: closed leaves the row open only for an older request to it") {
  const ClosedPagePolicy policy;
  ControllerRequest older_write = request(1, true);
  older_write.sequence = 1;
  ControllerRequest older_other_row = request(2, false);
  older_other_row.sequence = 2;
  ControllerRequest served = request(1, false);
  served.sequence = 3;
  ControllerRequest younger_hit = request(1, false);
  younger_hit.sequence = 4;
  // A younger hit gets the row after the served one only by activating it again.
  CHECK(policy.auto_precharge(served, {&older_other_row, &served, &younger_hit}, {}));
  // The row was opened for the older write: the served read leaves it to it.
  CHECK_FALSE(policy.auto_precharge(served, {&served}, {&older_write}));
  // Which then closes it.
  CHECK(policy.auto_precharge(older_write, {&served, &younger_hit}, {&older_write}));
}

TEST_CASE("page policy: adaptive keeps the row open only for another queued hit") {
  const AdaptivePagePolicy policy;
  ControllerRequest served = request(1, false);
  ControllerRequest other_row_read = request(2, false);
  ControllerRequest other_row_write = request(3, true);
  ControllerRequest hit_read = request(1, false);
  ControllerRequest hit_write = request(1, true);
  SECTION("the served request alone closes the row, even while still queued") {
    CHECK(policy.auto_precharge(served, {&served}, {}));
    CHECK(policy.auto_precharge(served, {}, {}));
  }
  SECTION("misses only") {
    CHECK(policy.auto_precharge(served, {&served, &other_row_read}, {&other_row_write}));
  }
  SECTION("a read hit keeps it open") {
    CHECK_FALSE(policy.auto_precharge(served, {&served, &hit_read}, {&other_row_write}));
  }
  SECTION("a write hit keeps it open") {
    CHECK_FALSE(policy.auto_precharge(served, {&served, &other_row_read}, {&hit_write}));
  }
}

TEST_CASE("page policy: make_page_policy builds the named kind") {
  CHECK(dynamic_cast<OpenPagePolicy*>(make_page_policy(PagePolicyKind::open).get()));
  CHECK(dynamic_cast<ClosedPagePolicy*>(make_page_policy(PagePolicyKind::closed).get()));
  CHECK(dynamic_cast<AdaptivePagePolicy*>(make_page_policy(PagePolicyKind::adaptive).get()));
}
