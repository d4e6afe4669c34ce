#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "modules/host/stream_order.h"

using ohmvp::StreamOrder;
using Ids = std::vector<StreamOrder::WorkId>;

TEST_CASE("stream order: work on one stream runs in the order it was added", "[streams]") {
  StreamOrder order;
  const auto s = order.create();
  CHECK(s == 1);
  const auto a = order.add(s), b = order.add(s), c = order.add(s);
  CHECK(order.ready() == Ids{a});
  CHECK(order.ready().empty());  // handed out once
  CHECK(order.would_wait(s));
  order.done(a);
  CHECK(order.finished(a));
  CHECK(order.ready() == Ids{b});
  order.done(b);
  CHECK_FALSE(order.idle(s));
  CHECK(order.ready() == Ids{c});
  order.done(c);
  CHECK(order.idle(s));
  CHECK(order.idle());
  CHECK_FALSE(order.would_wait(s));
}

TEST_CASE("stream order: work on different streams does not wait for each other", "[streams]") {
  StreamOrder order;
  const auto s1 = order.create(), s2 = order.create();
  const auto a = order.add(s1), b = order.add(s2), c = order.add(s1);
  CHECK(order.ready() == Ids{a, b});
  order.done(b);  // finishes first: c still waits for a
  CHECK(order.ready().empty());
  CHECK(order.idle(s2));
  CHECK_FALSE(order.would_wait(s2));
  order.done(a);
  CHECK(order.ready() == Ids{c});
}

TEST_CASE("stream order: the legacy default stream waits for every stream and they for it",
          "[streams]") {
  StreamOrder order;
  const auto s1 = order.create(), s2 = order.create();
  const auto a = order.add(s1), b = order.add(s2);
  CHECK(order.would_wait(StreamOrder::default_stream));
  const auto d = order.add(StreamOrder::default_stream);
  const auto e = order.add(s1), f = order.add(s2);
  CHECK(order.ready() == Ids{a, b});
  order.done(a);
  CHECK(order.ready().empty());  // d waits for b; e and f for d
  order.done(b);
  CHECK(order.ready() == Ids{d});
  CHECK(order.would_wait(s1));
  order.done(d);
  CHECK(order.ready() == Ids{e, f});
}

TEST_CASE("stream order: a non-blocking stream is ordered with no stream but itself", "[streams]") {
  StreamOrder order;
  const auto blocking = order.create();
  const auto free = order.create(StreamOrder::Kind::non_blocking);
  const auto a = order.add(free), b = order.add(blocking);
  CHECK(order.ready() == Ids{a, b});
  CHECK(order.would_wait(StreamOrder::default_stream));  // b is open
  order.done(b);
  CHECK_FALSE(order.would_wait(StreamOrder::default_stream));  // a does not hold stream 0
  const auto d = order.add(StreamOrder::default_stream);
  const auto e = order.add(free);
  const auto f = order.add(blocking);
  CHECK(order.ready() == Ids{d});  // e waits only for a; f for d
  CHECK(order.would_wait(free));
  CHECK(order.would_wait(blocking));
  order.done(a);
  CHECK(order.ready() == Ids{e});  // before d is done
  order.done(e);
  order.done(d);
  CHECK(order.ready() == Ids{f});
  order.done(f);
  CHECK(order.idle());
  // Destroyed, its id stays non-blocking: its last work does not hold the default stream.
  const auto g = order.add(free);
  order.destroy(free);
  CHECK_FALSE(order.would_wait(StreamOrder::default_stream));
  CHECK(order.ready() == Ids{g});
  order.done(g);
}

TEST_CASE("stream order: work may also wait for one piece of work elsewhere", "[streams]") {
  StreamOrder order;
  const auto s1 = order.create(), s2 = order.create();
  const auto a = order.add(s1);
  const auto waits = order.add(s2, a);  // cudaStreamWaitEvent on a's record
  const auto after = order.add(s2);
  CHECK(order.ready() == Ids{a});
  order.done(a);
  CHECK(order.ready() == Ids{waits});
  order.done(waits);
  CHECK(order.ready() == Ids{after});
  // Waiting for finished work, or for none, does not hold anything back.
  order.done(after);
  const auto free_to_go = order.add(s2, a);
  CHECK(order.ready() == Ids{free_to_go});
}

TEST_CASE("stream order: ids name streams only while they exist", "[streams]") {
  StreamOrder order;
  const auto s = order.create();
  const auto a = order.add(s);
  order.destroy(s);  // its work still runs
  CHECK(order.ready() == Ids{a});
  CHECK_THROWS_WITH(order.add(s), Catch::Contains("stream 1 is not a stream"));
  CHECK_THROWS_AS(order.destroy(s), std::invalid_argument);
  CHECK_THROWS_WITH(order.destroy(StreamOrder::default_stream),
                    Catch::Contains("default stream (0) cannot be destroyed"));
  CHECK_THROWS_AS(order.check(7, "launch"), std::invalid_argument);
  CHECK(order.create() == 2);                            // ids are not reused
  CHECK_THROWS_AS(order.done(a + 1), std::logic_error);  // never added
  CHECK_THROWS_AS(order.forget_streams(), std::logic_error);  // work is open
  order.done(a);
  CHECK(order.idle());
  // A fresh context: the streams are gone, and new ones get new ids.
  order.forget_streams();
  CHECK_THROWS_AS(order.check(2, "launch"), std::invalid_argument);
  CHECK(order.create() == 3);
  CHECK(order.add(3) == a + 1);
}
