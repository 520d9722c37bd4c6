// The parallel, random:SEED and pct:SEED:DEPTH:STEPS schedules (see include/pypto/sim/schedule.h).
#include "pypto/sim/schedule.h"

#include <fmt/format.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <system_error>
#include <thread>

#include "pypto/sim/machine.h"

namespace pypto::sim {

// A wake-up flag with one waiter, on a Linux futex: Post sets it and wakes the
// waiter, Take sleeps until it is set and clears it. No spinning or yielding
// (std::counting_semaphore spins and sched_yield()s first, which costs more
// than the hand-off itself when hundreds of threads take turns on 2 cores).
class Baton {
 public:
  void Post() {
    flag_.store(1, std::memory_order_release);
    syscall(SYS_futex, reinterpret_cast<int*>(&flag_), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }
  void Take() {
    while (flag_.exchange(0, std::memory_order_acquire) == 0)
      syscall(SYS_futex, reinterpret_cast<int*>(&flag_), FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr,
              0);
  }

 private:
  std::atomic<int> flag_{0};
};

enum class TState { kRunning, kBlocked, kJoining, kDone };

struct ThreadState {
  LogicalThread* t = nullptr;
  TState state = TState::kRunning;
  const std::function<bool()>* ready = nullptr;
  BlockInfo info;
  std::chrono::steady_clock::time_point since;
  std::atomic<int> kids_left{0};
  // Baton schedules: this thread's own wake-up, posted after the scheduler
  // lock is released, so handing the baton on wakes exactly one OS thread and
  // that thread does not then block on the lock.
  Baton baton;
};

namespace {

using Clock = std::chrono::steady_clock;

class SchedulerBase : public Scheduler {
 public:
  explicit SchedulerBase(const RunOptions& o) : opts_(o), start_(Clock::now()) {
    max_steps_ = o.max_steps;
  }
  ~SchedulerBase() override = default;

  void Abort() override {
    std::lock_guard<std::mutex> l(mu_);
    aborted_ = true;
  }
  bool aborted() const override { return aborted_.load(); }
  std::string deadlock_report() const override {
    std::lock_guard<std::mutex> l(mu_);
    return report_;
  }
  std::vector<DeadlockedThread> deadlocked() const override {
    std::lock_guard<std::mutex> l(mu_);
    return deadlocked_;
  }

 protected:
  ThreadState* Register(LogicalThread& t, TState s) {
    auto st = std::make_unique<ThreadState>();
    st->t = &t;
    st->state = s;
    t.state = st.get();
    ThreadState* raw = st.get();
    states_[t.tid] = std::move(st);
    return raw;
  }
  bool Runnable(ThreadState* s) const {
    if (s->state == TState::kRunning) return true;
    if (s->state == TState::kBlocked) return (*s->ready)();
    if (s->state == TState::kJoining) return s->kids_left.load() == 0;
    return false;
  }
  std::string Fmt(Span s) const { return span_fmt_ ? span_fmt_(s) : "<unknown>"; }
  // Starts one OS thread per kid, each running body(kid). When the OS refuses
  // a thread, the kids not started are marked done (the parent's join and the
  // deadlock check see them finished), the run is aborted and the reason is
  // returned; the caller joins the threads that did start, then throws it as a
  // SimError. "" when every thread started.
  std::string StartThreads(std::vector<std::thread>& threads,
                           std::vector<std::unique_ptr<LogicalThread>>& kids, ThreadState* ps,
                           const std::function<void(LogicalThread*)>& body) {
    threads.reserve(kids.size());
    for (size_t i = 0; i < kids.size(); ++i) {
      try {
        threads.emplace_back(body, kids[i].get());
      } catch (const std::system_error& e) {
        std::lock_guard<std::mutex> l(mu_);
        for (size_t j = i; j < kids.size(); ++j) {
          kids[j]->state->state = TState::kDone;
          ps->kids_left--;
        }
        aborted_ = true;
        return fmt::format(
            "cannot start thread '{}' (after {} of the {} threads of its group): {}; every "
            "rank, pl.spmd block and split_aiv lane is an OS thread (lower --ranks or the "
            "block count, or raise the process or memory limits)",
            kids[i]->name, i, kids.size(), e.code().message());
      }
    }
    return "";
  }
  // Called with mu_ held once a deadlock is certain.
  void ReportDeadlock(const std::string& headline) {
    if (!report_.empty()) return;
    report_ = "error: deadlock: " + headline + "\n" + BlockedLines(&deadlocked_);
    aborted_ = true;
  }
  // One line per blocked thread: rank, thread, op, function, line, condition (mu_ held).
  std::string BlockedLines(std::vector<DeadlockedThread>* out) {
    std::string r;
    for (auto& [tid, s] : states_) {
      if (s->state != TState::kBlocked) continue;
      const BlockInfo& b = s->info;
      std::string who = s->t->device >= 0 ? "rank " + std::to_string(s->t->device) : "host";
      r += "  " + who + " (thread " + s->t->name + ") blocked in " + b.what;
      if (!b.function.empty()) r += " in function '" + b.function + "'";
      r += " at " + Fmt(b.span);
      DeadlockedThread d{s->t->tid, s->t->name, b.what, Fmt(b.span),
                         b.describe ? b.describe() : ""};
      if (!d.condition.empty()) r += ": " + d.condition;
      r += "\n";
      out->push_back(std::move(d));
    }
    return r;
  }

 public:
  std::string AbortListingBlocked() override {
    std::string lines;
    {
      std::lock_guard<std::mutex> l(mu_);
      std::vector<DeadlockedThread> unused;
      lines = BlockedLines(&unused);
      aborted_ = true;
    }
    Wake();
    return lines;
  }

 protected:
  RunOptions opts_;
  Clock::time_point start_;
  mutable std::mutex mu_;
  std::map<int, std::unique_ptr<ThreadState>> states_;  // by tid
  std::atomic<bool> aborted_{false};
  std::string report_;
  std::vector<DeadlockedThread> deadlocked_;
};

// ---------------------------------------------------------------- parallel
class ParallelScheduler : public SchedulerBase {
 public:
  using SchedulerBase::SchedulerBase;

  void Start(LogicalThread& main) override {
    std::lock_guard<std::mutex> l(mu_);
    Register(main, TState::kRunning);
  }
  void Finish(LogicalThread& main) override {
    std::lock_guard<std::mutex> l(mu_);
    main.state->state = TState::kDone;
  }
  int64_t Now(LogicalThread&) override {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_).count();
  }
  void Point(LogicalThread&) override {
    if (aborted_.load(std::memory_order_relaxed)) throw Aborted{};
  }

  void RunGroup(LogicalThread& parent, std::vector<std::unique_ptr<LogicalThread>>& kids,
                const std::function<void(LogicalThread&)>& body) override {
    ThreadState* ps = parent.state;
    {
      std::lock_guard<std::mutex> l(mu_);
      ps->kids_left = static_cast<int>(kids.size());
      for (auto& k : kids) Register(*k, TState::kRunning);
      ps->state = TState::kJoining;
    }
    std::vector<std::thread> threads;
    std::string failed = StartThreads(threads, kids, ps, [this, ps, &body](LogicalThread* kt) {
      try {
        body(*kt);
      } catch (const Aborted&) {
      }
      std::lock_guard<std::mutex> l(mu_);
      kt->state->state = TState::kDone;
      ps->kids_left--;
    });
    for (auto& th : threads) th.join();
    {
      std::lock_guard<std::mutex> l(mu_);
      ps->state = TState::kRunning;
    }
    if (!failed.empty()) throw SimError(Span{}, failed);
    if (aborted_) throw Aborted{};
  }

  // A short spin (a hop on a free core completes within it), a bounded yield
  // phase, then sleeps on a condition variable until Wake() or a timeout
  // (writers that do not call Wake, the deadlock check) instead of yielding in
  // an unbounded loop.
  void Block(LogicalThread& t, const std::function<bool()>& ready, BlockInfo info) override {
    // With a transport each check is an MPI round trip: no spinning, and the
    // thread is registered as blocked at once (AbortListingBlocked names it).
    const int spins = opts_.transport ? 1 : kSpins;
    for (int i = 0; i < spins; ++i) {
      if (ready()) return;
      if (aborted_.load(std::memory_order_relaxed)) throw Aborted{};
    }
    ThreadState* s = t.state;
    {
      std::lock_guard<std::mutex> l(mu_);
      s->ready = &ready;
      s->info = std::move(info);
      s->since = Clock::now();
      s->state = TState::kBlocked;
    }
    // Short waits (a hop) yield, handing the core straight to the peer when
    // threads outnumber cores; longer ones sleep.
    for (auto until = Clock::now() + kYieldFor; Clock::now() < until;) {
      if (ready() || aborted_.load()) break;
      sched_yield();
    }
    for (uint64_t iter = 1;; ++iter) {
      uint64_t epoch = wake_epoch_.load();
      if (ready()) break;
      if (aborted_.load()) break;
      bool timed_out;
      {
        std::unique_lock<std::mutex> l(wake_mu_);
        sleepers_++;
        timed_out =
            wake_epoch_.load() == epoch && wake_cv_.wait_for(l, kSleep) == std::cv_status::timeout;
        sleepers_--;
      }
      if (timed_out || iter % 64 == 0) CheckDeadlock(s);
    }
    std::lock_guard<std::mutex> l(mu_);
    s->state = TState::kRunning;
    s->ready = nullptr;
    if (aborted_) throw Aborted{};
  }

  void Wake() override {
    wake_epoch_++;
    if (sleepers_.load() == 0) return;
    std::lock_guard<std::mutex> l(wake_mu_);
    wake_cv_.notify_all();
  }

  void Abort() override {
    SchedulerBase::Abort();
    Wake();
  }

 private:
  static constexpr int kSpins = 100;  // ready() checks before yielding
  static constexpr std::chrono::microseconds kYieldFor{50};
  static constexpr std::chrono::microseconds kSleep{200};
  // Wake() bumps the epoch; a sleeper sleeps only while it is unchanged (both
  // sequentially consistent, so a wake between its ready() and its sleep is seen).
  std::atomic<uint64_t> wake_epoch_{0};
  std::atomic<int> sleepers_{0};
  std::mutex wake_mu_;
  std::condition_variable wake_cv_;

  void CheckDeadlock(ThreadState* self) {
    std::lock_guard<std::mutex> l(mu_);
    if (aborted_) return;
    bool any_blocked = false, all_stuck = true;
    for (auto& [tid, s] : states_) {
      if (s->state == TState::kDone) continue;
      if (s->state == TState::kRunning) {
        all_stuck = false;
        break;
      }
      if (Runnable(s.get())) {
        all_stuck = false;
        break;
      }
      if (s->state == TState::kBlocked) any_blocked = true;
    }
    // With a transport another process may still notify: only the deadline is certain.
    if (any_blocked && all_stuck && !opts_.transport) {
      ReportDeadlock("every live thread is blocked and no pending operation can unblock one");
      return;
    }
    double waited = std::chrono::duration<double>(Clock::now() - self->since).count();
    if (waited > opts_.deadline_s)
      ReportDeadlock(fmt::format("a wait made no progress for {:g} s (--deadline {:g})", waited,
                                 opts_.deadline_s));
  }
};

// ---------------------------------------------------------------- random
// One logical thread at a time; the baton policy (Pick) is the subclass's.
class BatonScheduler : public SchedulerBase {
 public:
  explicit BatonScheduler(const RunOptions& o) : SchedulerBase(o), rng_(o.seed) {}

  void Start(LogicalThread& main) override {
    std::lock_guard<std::mutex> l(mu_);
    OnRegister(*Register(main, TState::kRunning));
    current_ = main.tid;
  }
  void Finish(LogicalThread& main) override {
    std::lock_guard<std::mutex> l(mu_);
    main.state->state = TState::kDone;
  }
  int64_t Now(LogicalThread&) override { return ++steps_; }

  void Point(LogicalThread& t) override {
    std::unique_lock<std::mutex> l(mu_);
    if (aborted_) throw Aborted{};
    Switch(t, l);
  }

  void Block(LogicalThread& t, const std::function<bool()>& ready, BlockInfo info) override {
    std::unique_lock<std::mutex> l(mu_);
    if (aborted_) throw Aborted{};
    ThreadState* s = t.state;
    s->ready = &ready;
    s->info = std::move(info);
    s->state = TState::kBlocked;
    Switch(t, l);  // returns once chosen while ready() holds
    s->state = TState::kRunning;
    s->ready = nullptr;
  }

  void RunGroup(LogicalThread& parent, std::vector<std::unique_ptr<LogicalThread>>& kids,
                const std::function<void(LogicalThread&)>& body) override {
    std::vector<std::thread> threads;
    ThreadState* ps = parent.state;
    {
      std::unique_lock<std::mutex> l(mu_);
      if (aborted_) throw Aborted{};
      ps->kids_left = static_cast<int>(kids.size());
      for (auto& k : kids) OnRegister(*Register(*k, TState::kRunning));
      ps->state = TState::kJoining;
    }
    std::string failed = StartThreads(threads, kids, ps, [this, ps, &body](LogicalThread* kt) {
      {
        std::unique_lock<std::mutex> l(mu_);
        AwaitBaton(*kt, l);
      }
      try {
        if (!aborted_) body(*kt);
      } catch (const Aborted&) {
      }
      std::unique_lock<std::mutex> l(mu_);
      kt->state->state = TState::kDone;
      ps->kids_left--;
      ThreadState* next = aborted_ ? nullptr : PassOn();
      if (!next && aborted_) next = NextToUnwind();
      l.unlock();
      if (next) next->baton.Post();
    });
    bool ok = failed.empty();
    std::unique_lock<std::mutex> l(mu_);
    if (ok) {
      try {
        Switch(parent, l);
      } catch (const Aborted&) {
        ok = false;
      }
    }
    if (!ok) {  // this thread holds the baton: let the kids unwind first
      ThreadState* next = NextToUnwind();
      l.unlock();
      if (next) next->baton.Post();
      for (auto& th : threads) th.join();
      l.lock();
      AwaitBaton(parent, l);
    } else {
      l.unlock();
      for (auto& th : threads) th.join();
      l.lock();
    }
    ps->state = TState::kRunning;
    if (!failed.empty()) throw SimError(Span{}, failed);
    if (!ok || aborted_) throw Aborted{};
  }

 protected:
  // Policy hooks (mu_ held): a thread was registered; a switch point of the
  // running thread `t` at step steps_; the next thread to run, or nullptr when
  // no thread is runnable (then *any_live says whether some thread is not done).
  virtual void OnRegister(ThreadState&) = 0;
  virtual void OnStep(LogicalThread&) {}
  virtual ThreadState* Pick(bool* any_live) = 0;
  virtual std::string Describe() const = 0;

  std::mt19937_64 rng_;
  int64_t steps_ = 0;

 private:
  // Picks the next runnable thread, hands it the baton and waits until the
  // baton comes back to `t`. mu_ held.
  void Switch(LogicalThread& t, std::unique_lock<std::mutex>& l) {
    ++steps_;
    OnStep(t);
    ThreadState* next = PassOn();
    if (!next) throw Aborted{};
    if (next != t.state) {
      l.unlock();
      next->baton.Post();
      t.state->baton.Take();
      l.lock();
    }
    AwaitBaton(t, l);
    if (aborted_) throw Aborted{};
  }
  // Waits (mu_ held, released while asleep) until `t` holds the baton; a stale
  // post just loops. After an abort the baton still decides who runs: the
  // threads unwind one at a time (NextToUnwind), so a trace of the teardown is
  // as deterministic as the run.
  void AwaitBaton(LogicalThread& t, std::unique_lock<std::mutex>& l) {
    while (current_ != t.tid) {
      l.unlock();
      t.state->baton.Take();
      l.lock();
    }
  }
  // After an abort: the baton goes to the live thread of lowest tid that can
  // unwind (any but a parent whose kids are still unwinding). mu_ held.
  ThreadState* NextToUnwind() {
    for (auto& [tid, s] : states_) {
      if (s->state == TState::kDone) continue;
      if (s->state == TState::kJoining && s->kids_left.load() > 0) continue;
      current_ = tid;
      return s.get();
    }
    return nullptr;
  }
  // Gives the baton to a runnable thread and returns it (the caller posts its
  // semaphore once mu_ is released); nullptr (after reporting) on deadlock.
  // mu_ held.
  ThreadState* PassOn() {
    bool any_live = false;
    ThreadState* pick = Pick(&any_live);
    if (!pick) {
      if (any_live) ReportDeadlock("no runnable thread remains (" + Describe() + ")");
      return nullptr;
    }
    current_ = pick->t->tid;
    return pick;
  }

  int current_ = -1;
};

// random:SEED: a uniformly chosen runnable thread at every switch point, by
// rejection sampling: draw a thread uniformly from the live ones until one is
// runnable (conditioned on acceptance, that is uniform over the runnable ones).
// Expected O(live / runnable) draws; after kDraws rejections the runnable set is
// computed by one scan and the pick drawn from it (still uniform), which bounds
// a step by O(P) when almost every thread is blocked. Finished threads leave the
// live set when drawn or scanned (swap with the last: O(1)).
class RandomScheduler : public BatonScheduler {
 public:
  using BatonScheduler::BatonScheduler;

 protected:
  void OnRegister(ThreadState& s) override { live_.push_back(&s); }
  ThreadState* Pick(bool* any_live) override {
    for (int rejected = 0; rejected < kDraws && !live_.empty();) {
      size_t i = rng_() % live_.size();
      ThreadState* s = live_[i];
      if (s->state == TState::kDone) {
        Drop(i);
        continue;
      }
      if (Runnable(s)) return s;
      ++rejected;
    }
    std::vector<ThreadState*> cand;
    for (size_t i = 0; i < live_.size();) {
      if (live_[i]->state == TState::kDone) {
        Drop(i);
        continue;
      }
      if (Runnable(live_[i])) cand.push_back(live_[i]);
      ++i;
    }
    *any_live = !live_.empty();
    if (cand.empty()) return nullptr;
    return cand[cand.size() == 1 ? 0 : rng_() % cand.size()];
  }
  std::string Describe() const override {
    return "random schedule, seed " + std::to_string(opts_.seed);
  }

 private:
  static constexpr int kDraws = 8;
  void Drop(size_t i) {
    live_[i] = live_.back();
    live_.pop_back();
  }
  std::vector<ThreadState*> live_;  // not known to be done; order is the RNG's
};

// pct:SEED:DEPTH:STEPS: the runnable thread of highest priority runs. Every
// thread gets a random priority above DEPTH when registered; at the i-th change
// point (DEPTH-1 of them, distinct steps drawn from 1..STEPS) the running
// thread's priority becomes DEPTH-i, below every initial priority. Ties (never
// in practice: 63 random bits) go to the lower tid. The threads are kept ordered
// by (priority, tid), so a pick walks down from the top to the first runnable
// thread: O(log P) plus the number of higher-priority blocked threads passed.
class PctScheduler : public BatonScheduler {
 public:
  explicit PctScheduler(const RunOptions& o) : BatonScheduler(o) {
    int64_t horizon = std::max<int64_t>(o.pct_steps, 1);
    int changes = std::max(o.pct_depth - 1, 0);
    std::vector<int64_t> pts;
    while (static_cast<int64_t>(pts.size()) < std::min<int64_t>(changes, horizon)) {
      int64_t k = 1 + static_cast<int64_t>(rng_() % static_cast<uint64_t>(horizon));
      if (std::find(pts.begin(), pts.end(), k) == pts.end()) pts.push_back(k);
    }
    // pts[i] is the step of change point i+1 (drawn order = index order).
    for (size_t i = 0; i < pts.size(); ++i) change_at_[pts[i]] = static_cast<int>(i) + 1;
  }

 protected:
  void OnRegister(ThreadState& s) override {
    uint64_t p = static_cast<uint64_t>(opts_.pct_depth) + 1 + (rng_() >> 1);
    prio_[s.t->tid] = p;
    order_.emplace(Key{p, s.t->tid}, &s);
  }
  void OnStep(LogicalThread& t) override {
    auto it = change_at_.find(steps_);
    if (it == change_at_.end()) return;
    uint64_t& p = prio_[t.tid];
    auto node = order_.extract(Key{p, t.tid});
    p = static_cast<uint64_t>(std::max(opts_.pct_depth - it->second, 0));
    node.key() = Key{p, t.tid};
    order_.insert(std::move(node));
  }
  ThreadState* Pick(bool* any_live) override {
    for (auto it = order_.begin(); it != order_.end();) {
      if (it->second->state == TState::kDone) {
        it = order_.erase(it);
        continue;
      }
      *any_live = true;
      if (Runnable(it->second)) return it->second;
      ++it;
    }
    return nullptr;
  }
  std::string Describe() const override { return "schedule " + ScheduleString(opts_); }

 private:
  // Highest priority first, ties to the lower tid.
  struct Key {
    uint64_t prio;
    int tid;
    bool operator<(const Key& o) const { return prio != o.prio ? prio > o.prio : tid < o.tid; }
  };
  std::map<int, uint64_t> prio_;       // by tid
  std::map<Key, ThreadState*> order_;  // threads not known to be done
  std::map<int64_t, int> change_at_;   // step -> change point index (1-based)
};

}  // namespace

std::unique_ptr<Scheduler> MakeScheduler(const RunOptions& opts) {
  if (opts.schedule == Schedule::kRandom) return std::make_unique<RandomScheduler>(opts);
  if (opts.schedule == Schedule::kPct) return std::make_unique<PctScheduler>(opts);
  return std::make_unique<ParallelScheduler>(opts);
}

}  // namespace pypto::sim
