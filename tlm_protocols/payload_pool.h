#pragma once

#include <systemc>
#include <tlm>
#include <vector>

namespace ohmvp {

// A tlm_mm_interface that recycles generic payloads: acquire() hands out a payload with one
// reference; the last release() returns it to the free list after reset(), which frees the
// extensions set with set_auto_extension (others must be cleared by whoever set them).
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override;

  tlm::tlm_generic_payload* acquire();
  void free(tlm::tlm_generic_payload* payload) override;

  size_t allocated() const { return m_all.size(); }
  size_t available() const { return m_free.size(); }

 private:
  std::vector<tlm::tlm_generic_payload*> m_all;
  std::vector<tlm::tlm_generic_payload*> m_free;
};

// RAII reference to a pooled payload (acquire on construction, release on destruction).
class PayloadRef {
 public:
  explicit PayloadRef(tlm::tlm_generic_payload* payload) : m_payload(payload) {
    if (m_payload) m_payload->acquire();
  }
  PayloadRef(const PayloadRef&) = delete;
  PayloadRef& operator=(const PayloadRef&) = delete;
  ~PayloadRef() {
    if (m_payload) m_payload->release();
  }
  tlm::tlm_generic_payload* operator->() const { return m_payload; }
  tlm::tlm_generic_payload& operator*() const { return *m_payload; }
  tlm::tlm_generic_payload* get() const { return m_payload; }

 private:
  tlm::tlm_generic_payload* m_payload;
};

}  // namespace ohmvp
