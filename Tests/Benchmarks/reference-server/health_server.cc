// Benchmark-only reference: grpc.health.v1.Health on gRPC C++ (Debian's libgrpc++) with the callback API,
// the fastest server API it has. Tests/Benchmarks/run builds it and measures it beside kindred's server.
//
//   kindred-reference-health-server --listen HOST:PORT [--tls-cert FILE --tls-key FILE]
//
// Check answers SERVING for "" and "grpc.health.v1.Health", NOT_FOUND for anything else (as the health
// protocol says); Watch sends the status once and stays open until the client goes. Server reflection is on
// so that the same grpcio checks run against it. SIGTERM or SIGINT shuts it down.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>

#include "grpc/health/v1/health.grpc.pb.h"

namespace {

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

bool KnownService(const std::string& name) { return name.empty() || name == "grpc.health.v1.Health"; }

// Writes one status and then waits for the client to cancel; deletes itself when gRPC is done with it.
class WatchReactor final : public grpc::ServerWriteReactor<HealthCheckResponse> {
 public:
  explicit WatchReactor(bool known) {
    response_.set_status(known ? HealthCheckResponse::SERVING : HealthCheckResponse::SERVICE_UNKNOWN);
    StartWrite(&response_);
  }
  void OnWriteDone(bool /*ok*/) override {}
  void OnCancel() override { Finish(grpc::Status::CANCELLED); }
  void OnDone() override { delete this; }

 private:
  HealthCheckResponse response_;
};

class HealthService final : public Health::CallbackService {
  grpc::ServerUnaryReactor* Check(grpc::CallbackServerContext* context, const HealthCheckRequest* request,
                                  HealthCheckResponse* response) override {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (KnownService(request->service())) {
      response->set_status(HealthCheckResponse::SERVING);
      reactor->Finish(grpc::Status::OK);
    } else {
      reactor->Finish(grpc::Status(grpc::StatusCode::NOT_FOUND, "unknown service"));
    }
    return reactor;
  }

  grpc::ServerWriteReactor<HealthCheckResponse>* Watch(grpc::CallbackServerContext* /*context*/,
                                                       const HealthCheckRequest* request) override {
    return new WatchReactor(KnownService(request->service()));
  }
};

}  // namespace

static std::string ReadFile(const char* path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

int main(int argc, char** argv) {
  // TLS (for Tests/Benchmarks/tls): the same server with a certificate and key, TLS as gRPC C++ offers it.
  const bool tls = argc == 7 && std::strcmp(argv[3], "--tls-cert") == 0 && std::strcmp(argv[5], "--tls-key") == 0;
  if ((argc != 3 && !tls) || std::strcmp(argv[1], "--listen") != 0) {
    std::fprintf(stderr, "usage: %s --listen HOST:PORT [--tls-cert FILE --tls-key FILE]\n", argv[0]);
    return 2;
  }
  std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
  if (tls) {
    grpc::SslServerCredentialsOptions options;
    options.pem_key_cert_pairs.push_back({ReadFile(argv[6]), ReadFile(argv[4])});
    credentials = grpc::SslServerCredentials(options);
  }
  // Block the shutdown signals in every thread gRPC starts; one thread waits for them below.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  HealthService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(argv[2], credentials, &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::fprintf(stderr, "cannot listen on %s\n", argv[2]);
    return 1;
  }
  std::fprintf(stderr, "listening on %s\n", argv[2]);

  std::thread stopper([&server, &signals] {
    int signal = 0;
    sigwait(&signals, &signal);
    // In-flight calls (a Watch stays open) are cancelled after a short drain.
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  });
  server->Wait();
  stopper.join();
  return 0;
}
