// Long work of the viewer's (Fix this joint, the Joint tab's Sweep, a weight refit) on one worker
// thread: launch() runs it, the UI thread polls progress() and done(), cancel() asks the work to
// stop (through the engine's progress callback, report()) and joins the thread.
//
// A job derived from this one must call cancel() in its own destructor: the worker writes the
// derived job's members, which die before this base does.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace rigview {

class WorkerJob {
 public:
  WorkerJob() = default;
  virtual ~WorkerJob() { cancel(); }
  WorkerJob(const WorkerJob&) = delete;
  WorkerJob& operator=(const WorkerJob&) = delete;

  void cancel();
  bool running() const { return thread_.joinable() && !done_.load(); }
  bool done() const { return done_.load(); }
  float progress() const { return progress_.load(); }
  // Once done(): whether the work finished (not cancelled, no error), and its one-line error
  // ("cancelled" when it was stopped without one).
  bool succeeded() const { return done() && succeeded_; }
  const std::string& error() const { return error_; }

 protected:
  // Cancels and joins an earlier run, then runs `work` on a new thread. `work` returns whether it
  // succeeded and writes its error; it passes report() and report_user() to the engine's progress
  // callbacks with report_user(). Allocates (the thread); never per frame.
  void launch(std::function<bool(std::string& error)> work);
  // An engine progress callback (`user`: the job): records the fraction; false once cancelled.
  static bool report(void* user, float fraction);
  void* report_user() { return this; }  // the base's address, whatever the derived layout

 private:
  std::thread thread_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::atomic<float> progress_{0.0f};
  // Written by the worker before done_.
  bool succeeded_ = false;
  std::string error_;
};

}  // namespace rigview
