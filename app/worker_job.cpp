#include "worker_job.h"

namespace rigview {

void WorkerJob::cancel() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

void WorkerJob::launch(std::function<bool(std::string& error)> work) {
  cancel();
  cancel_ = false;
  done_ = false;
  progress_ = 0.0f;
  succeeded_ = false;
  error_.clear();
  thread_ = std::thread([this, work = std::move(work)]() {
    succeeded_ = work(error_);
    if (!succeeded_ && error_.empty()) error_ = "cancelled";
    if (succeeded_) progress_ = 1.0f;
    done_ = true;
  });
}

bool WorkerJob::report(void* user, float fraction) {
  auto* self = static_cast<WorkerJob*>(user);
  self->progress_ = fraction;
  return !self->cancel_.load();
}

}  // namespace rigview
