// The Redis backend of storage.hpp, through hiredis: one connection, plain
// GET and SET of binary-safe strings, every command bounded by the limits.
#include <signal.h>
#include <sys/time.h>

#include <cerrno>
#include <ctime>

#include <hiredis/hiredis.h>

#include "hydra/error.hpp"
#include "hydra/remote/backends.hpp"

namespace hydra::remote {

namespace {

timeval to_timeval(std::chrono::milliseconds duration) {
  timeval value{};
  value.tv_sec = static_cast<time_t>(duration.count() / 1000);
  value.tv_usec = static_cast<suseconds_t>((duration.count() % 1000) * 1000);
  return value;
}

/// SIGPIPE blocked in this thread while it lives: hiredis writes to its
/// socket with write(), and a server gone away must be an error of the
/// command, not the end of the process. A SIGPIPE this thread caused is
/// taken before the mask is restored; other threads and the programs a
/// capture starts keep the default disposition.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
  }
  ~SigpipeBlocked() {
    if (!was_pending_) {
      const timespec none{0, 0};
      while (sigtimedwait(&pipe_, nullptr, &none) == -1 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_{}, previous_{};
  bool was_pending_ = false;
};

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

struct ContextDeleter {
  void operator()(redisContext* context) const { redisFree(context); }
};

class RedisStorage final : public Storage {
 public:
  RedisStorage(const Address& address, const Limits& limits) : url_(address.url) {
    const auto connect = to_timeval(limits.connect);
    context_.reset(address.kind == Address::Kind::redis_unix
                       ? redisConnectUnixWithTimeout(address.path.c_str(), connect)
                       : redisConnectWithTimeout(address.host.c_str(), address.port, connect));
    if (!context_) throw Error("shared storage " + url_ + ": cannot connect");
    if (context_->err) throw Error("shared storage " + url_ + ": cannot connect: " + context_->errstr);
    if (redisSetTimeout(context_.get(), to_timeval(limits.operation)) != REDIS_OK)
      throw Error("shared storage " + url_ + ": cannot set a timeout");
    if (!address.password.empty()) {
      Reply reply(address.user.empty()
                      ? command("AUTH %b", address.password.data(), address.password.size())
                      : command("AUTH %b %b", address.user.data(), address.user.size(), address.password.data(),
                                address.password.size()));
      expect_status(reply, "AUTH");
    }
    if (address.database != 0) {
      Reply reply(command("SELECT %d", address.database));
      expect_status(reply, "SELECT");
    }
  }

  std::optional<std::string> get(const std::string& key) override {
    Reply reply(command("GET %b", key.data(), key.size()));
    if (reply->type == REDIS_REPLY_NIL) return std::nullopt;
    if (reply->type == REDIS_REPLY_STRING) return std::string(reply->str, reply->len);
    throw Error("shared storage " + url_ + ": GET answered " + describe(*reply));
  }

  void put(const std::string& key, std::string_view value) override {
    Reply reply(command("SET %b %b", key.data(), key.size(), value.data(), value.size()));
    expect_status(reply, "SET");
  }

 private:
  template <typename... Arguments>
  redisReply* command(const char* format, Arguments... arguments) {
    if (broken_) throw Error("shared storage " + url_ + ": the connection was lost");
    const SigpipeBlocked blocked;
    auto* reply = static_cast<redisReply*>(redisCommand(context_.get(), format, arguments...));
    if (!reply) {
      // hiredis cannot use a context again after an I/O error or a timeout.
      broken_ = true;
      throw Error("shared storage " + url_ + ": " + (context_->errstr[0] ? context_->errstr : "no answer"));
    }
    return reply;
  }

  void expect_status(const Reply& reply, const char* what) const {
    if (reply->type == REDIS_REPLY_STATUS) return;
    throw Error("shared storage " + url_ + ": " + what + " answered " + describe(*reply));
  }

  static std::string describe(const redisReply& reply) {
    if (reply.type == REDIS_REPLY_ERROR) return "an error: " + std::string(reply.str, reply.len);
    return "a reply of type " + std::to_string(reply.type);
  }

  std::string url_;
  std::unique_ptr<redisContext, ContextDeleter> context_;
  bool broken_ = false;
};

}  // namespace

std::unique_ptr<Storage> open_redis(const Address& address, const Limits& limits) {
  return std::make_unique<RedisStorage>(address, limits);
}

}  // namespace hydra::remote
