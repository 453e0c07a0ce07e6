#include "revwave/cuda/backend/device_points.hpp"

#include <unordered_map>
#include <vector>

namespace revwave {

template <class T>
void DevicePoints<T>::assign(const SparsePoints& pts, UploadRing* ring, cudaStream_t stream) {
  const std::size_t corners = pts.index.size();
  std::vector<T> weight(corners);
  for (std::size_t k = 0; k < corners; ++k) weight[k] = static_cast<T>(pts.weight[k]);
  // Distinct indices in order of first appearance, each with its corners in ascending order.
  std::unordered_map<index_t, std::size_t> slot_of;
  std::vector<index_t> targets;
  std::vector<std::vector<index_t>> lists;
  for (std::size_t k = 0; k < corners; ++k) {
    const auto [it, fresh] = slot_of.emplace(pts.index[k], targets.size());
    if (fresh) {
      targets.push_back(pts.index[k]);
      lists.emplace_back();
    }
    lists[it->second].push_back(static_cast<index_t>(k));
  }
  std::vector<index_t> begin(targets.size() + 1, 0), corner;
  corner.reserve(corners);
  for (std::size_t t = 0; t < targets.size(); ++t) {
    corner.insert(corner.end(), lists[t].begin(), lists[t].end());
    begin[t + 1] = static_cast<index_t>(corner.size());
  }
  put_on_device(index_, pts.index, "receiver/source indices", ring, stream);
  put_on_device(weight_, weight, "receiver/source weights", ring, stream);
  put_on_device(target_index_, targets, "injection targets", ring, stream);
  put_on_device(target_begin_, begin, "injection offsets", ring, stream);
  put_on_device(corner_, corner, "injection corners", ring, stream);
  view_.count = pts.count;
  view_.index = index_.as<index_t>();
  view_.weight = weight_.as<T>();
  view_.targets = static_cast<index_t>(targets.size());
  view_.target_index = target_index_.as<index_t>();
  view_.target_begin = target_begin_.as<index_t>();
  view_.corner = corner_.as<index_t>();
}

template class DevicePoints<float>;
template class DevicePoints<double>;

}  // namespace revwave
