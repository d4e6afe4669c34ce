#include "tlm_protocols/payload_pool.h"

namespace ohmvp {

PayloadPool::~PayloadPool() {
  for (auto* payload : m_all) {
    payload->free_all_extensions();
    delete payload;
  }
}

tlm::tlm_generic_payload* PayloadPool::acquire() {
  tlm::tlm_generic_payload* payload;
  if (m_free.empty()) {
    payload = new tlm::tlm_generic_payload(this);
    m_all.push_back(payload);
  } else {
    payload = m_free.back();
    m_free.pop_back();
  }
  payload->acquire();
  return payload;
}

void PayloadPool::free(tlm::tlm_generic_payload* payload) {
  payload->reset();  // frees auto extensions; a user of the pool clears the ones it set itself
  m_free.push_back(payload);
}

}  // namespace ohmvp
