// Shuffles in both arms of an if/else: with few spins the first arm waits at its shuffle for the
// second; with many it loops long enough that the model's independent thread scheduling yields
// to the second, which reaches its own shuffle. Either way the two shuffles meet, as on sm_70.
extern "C" __global__ void shuffle_after_split(int* out, int spins) {
  const int lane = threadIdx.x % 32;
  int value = lane;
  if (lane < 16) {
    for (int i = 0; i < spins; ++i) value = value * 3 + out[32];
    value = __shfl_sync(0xffffffffu, value, lane + 16);
  } else {
    value = __shfl_sync(0xffffffffu, value * 2, lane - 16);
  }
  out[threadIdx.x] = value;
}

// Without a yield: each arm of an if/else writes its half of a warp's shared tile, waits at its
// own __syncwarp() and reads the other half. On sm_70 the two __syncwarp() calls meet, so each
// lane reads what the other arm wrote.
extern "C" __global__ void tile_swap_in_both_arms(int* out) {
  __shared__ int tile[32];
  const int lane = threadIdx.x % 32;
  int value;
  if (lane < 16) {
    tile[lane] = lane * 10;
    __syncwarp();
    value = tile[lane + 16];
  } else {
    tile[lane] = lane * 100;
    __syncwarp();
    value = tile[lane - 16];
  }
  out[threadIdx.x] = value;
}

// Without a yield: a shuffle and a ballot in each arm, each arm giving its own operands.
extern "C" __global__ void exchange_in_both_arms(int* out, unsigned* ballots) {
  const int lane = threadIdx.x % 32;
  int value;
  unsigned ballot;
  if (lane % 3 == 0) {
    value = __shfl_sync(0xffffffffu, lane + 1000, (lane + 1) % 32);
    ballot = __ballot_sync(0xffffffffu, lane < 8);
  } else {
    value = __shfl_sync(0xffffffffu, -lane, (lane + 1) % 32);
    ballot = __ballot_sync(0xffffffffu, lane >= 24);
  }
  out[threadIdx.x] = value;
  ballots[threadIdx.x] = ballot;
}

// Without a yield: one arm shuffles, the other waits at __syncwarp(): PTX leaves this undefined,
// and the model refuses it.
extern "C" __global__ void different_instructions_in_the_arms(int* out) {
  const int lane = threadIdx.x % 32;
  int value = lane;
  if (lane < 16) {
    value = __shfl_sync(0xffffffffu, value, lane + 16);
  } else {
    __syncwarp();
  }
  out[threadIdx.x] = value;
}

// Without a yield: the three arms of an if / else if / else each shuffle their own value; every
// lane reads lane + 8's.
extern "C" __global__ void shuffle_in_three_arms(int* out) {
  const int lane = threadIdx.x % 32;
  const int source = (lane + 8) % 32;
  int value;
  if (lane < 8) {
    value = __shfl_sync(0xffffffffu, lane + 100, source);
  } else if (lane < 24) {
    value = __shfl_sync(0xffffffffu, lane + 200, source);
  } else {
    value = __shfl_sync(0xffffffffu, lane + 300, source);
  }
  out[threadIdx.x] = value;
}

// Without a yield: the second arm first waits for its own half (a __syncwarp over its lanes
// only), then writes its half of the tile and meets the first arm's __syncwarp() over the warp.
extern "C" __global__ void own_half_then_warp(int* out) {
  __shared__ int tile[32];
  const int lane = threadIdx.x % 32;
  int value = 0;
  if (lane < 16) {
    __syncwarp();
    value = tile[lane + 16];
  } else {
    __syncwarp(0xffff0000u);
    tile[lane] = lane + 100;
    __syncwarp();
  }
  out[threadIdx.x] = value;
}

// Without a yield: shuffles inside a nested if/else and in the outer else arm. Each inner arm's
// shuffle names the outer else arm's lanes too, so all three meet; every lane reads lane + 8's.
extern "C" __global__ void shuffle_in_nested_arms(int* out) {
  const int lane = threadIdx.x % 32;
  const int source = (lane + 8) % 32;
  int value;
  if (lane < 16) {
    if (lane < 8) {
      value = __shfl_sync(0xffffffffu, lane + 100, source);
    } else {
      value = __shfl_sync(0xffffffffu, lane + 200, source);
    }
    value += out[64 + lane];
  } else {
    value = __shfl_sync(0xffffffffu, lane + 300, source);
  }
  out[threadIdx.x] = value;
}
