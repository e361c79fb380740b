BEGIN TRANSACTION;
CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, status TEXT, result TEXT, reason TEXT, "system.chips", "system.topology.dims", "system.efa.nics", "parallel.fsdp", "parallel.dp", "batch.global_batch", "system", "system.instances");
INSERT INTO "points" VALUES('qwen3-32b-chips:system.chips=4;system.topology.dims=[{size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=4;parallel.fsdp=4;parallel.dp=1;batch.global_batch=4',1,'qwen3-32b-chips','system.chips=4;system.topology.dims=[{size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=4;parallel.fsdp=4;parallel.dp=1;batch.global_batch=4','infeasible','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "9976f3ecde052c3c",
  "infeasible": {
    "kind": "oom",
    "message": "qwen3-32b-trn2 does not fit in HBM: 36.31 GiB per rank needed, 24.00 GiB available (use --allow-oom to simulate anyway)"
  }
}
','trnsim: error: qwen3-32b-trn2 does not fit in HBM: 36.31 GiB per rank needed, 24.00 GiB available (use --allow-oom to simulate anyway)',4,'[{size: 4, link_bandwidth: "256 GB/s"}]',4,4,1,4,NULL,NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips:system.chips=1;system.topology.dims=[{size: 1, link_bandwidth: "256 GB/s"}];system.efa.nics=1;parallel.fsdp=1;parallel.dp=1;batch.global_batch=1',0,'qwen3-32b-chips','system.chips=1;system.topology.dims=[{size: 1, link_bandwidth: "256 GB/s"}];system.efa.nics=1;parallel.fsdp=1;parallel.dp=1;batch.global_batch=1','infeasible','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "b88bd62aa213776f",
  "infeasible": {
    "kind": "oom",
    "message": "qwen3-32b-trn2 does not fit in HBM: 127.13 GiB per rank needed, 24.00 GiB available (use --allow-oom to simulate anyway)"
  }
}
','trnsim: error: qwen3-32b-trn2 does not fit in HBM: 127.13 GiB per rank needed, 24.00 GiB available (use --allow-oom to simulate anyway)',1,'[{size: 1, link_bandwidth: "256 GB/s"}]',1,1,1,1,NULL,NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips:system.chips=8;system.topology.dims=[{size: 2, link_bandwidth: "256 GB/s"}, {size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=8;parallel.fsdp=8;parallel.dp=1;batch.global_batch=8',2,'qwen3-32b-chips','system.chips=8;system.topology.dims=[{size: 2, link_bandwidth: "256 GB/s"}, {size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=8;parallel.fsdp=8;parallel.dp=1;batch.global_batch=8','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "21a5e616753ba92e",
  "scenario": "qwen3-32b-trn2",
  "mode": "compiled",
  "system": {
    "name": "trn2.48xlarge",
    "chip": "trn2",
    "instances": 1,
    "chips": 8,
    "world": 32
  },
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "precision": {
    "compute": "bf16"
  },
  "steady": {
    "step_time_s": 4.665558865713001,
    "step_time_s_interval": {
      "low": 4.117713992231357,
      "high": 5.286292241399112,
      "level": 0.8,
      "log_sigma": 0.09746738034267204,
      "parts": {
        "parameters": 0.019582130396437806,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.019582130396437806
      },
      "why": []
    },
    "tokens_per_s": 7023.381537592565,
    "tokens_per_s_interval": {
      "low": 6198.673569989268,
      "high": 7957.813500845716,
      "level": 0.8,
      "log_sigma": 0.09746738034267204,
      "parts": {
        "parameters": 0.019582130396437806,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.019582130396437806
      },
      "why": []
    },
    "mfu": 0.2695542682745806,
    "mfu_interval": {
      "low": 0.237902342267479,
      "high": 0.3054173525679367,
      "level": 0.8,
      "log_sigma": 0.09746738034267204,
      "parts": {
        "parameters": 0.019582130396437806,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.019582130396437806
      },
      "why": []
    },
    "model_flops": 6.71066728955904e+15,
    "breakdown": {
      "compute": 4.439892485458828,
      "memory_bound": 0.0019375350021732824,
      "exposed_communication": 0.22372884525199943,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.219968938760001,
      "vector": 0.19772233318399884,
      "scalar": 0.023904738641000355,
      "gpsimd": 0.00023400987600059701
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 580,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 22603091960,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 2559540880,
      "gradients": 2303586792,
      "optimizer": 12285796224,
      "activations": 3306684416,
      "workspace": 2147483648
    }
  },
  "roofline": {
    "scope": "rank 0: one logical NeuronCore (LNC 2)",
    "peak_bf16_flop_per_s": 166750000000000.0,
    "hbm_bandwidth_B_per_s": 725000000000.0,
    "points": [
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169280004,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.6
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279997,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.7
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279996,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.72
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5119247169279995,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953917.1
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2566606228480004,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430547.74
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846399994,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.74
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2560583584639997,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.8
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25596235846400006,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67118732953917.016
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.18790648435199975,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.625
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000046,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.02
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000002,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.31
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999977,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.48
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.1023849433599997,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67118732970699.375
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08200395468800159,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731324.88
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468800038,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970698.87
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468800038,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970698.87
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799962,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.49
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800031,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.45
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.0752585937279997,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.93
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023758006395999898,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67058001618698.06
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023753301206000055,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.34
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023751801206000067,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67075520611781.74
      }
    ]
  },
  "sim": {
    "events": 496460,
    "ops": 3148,
    "simulated_ops": 3148,
    "simulated_ranks": 1,
    "sibling_collectives": 3280,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 4.114664577
  }
}
','',8,'[{size: 2, link_bandwidth: "256 GB/s"}, {size: 4, link_bandwidth: "256 GB/s"}]',8,8,1,8,NULL,NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips:system=trn2.48xlarge;parallel.dp=1;batch.global_batch=16',3,'qwen3-32b-chips','system=trn2.48xlarge;parallel.dp=1;batch.global_batch=16','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "eb182aad56ca6bce",
  "scenario": "qwen3-32b-trn2",
  "mode": "compiled",
  "system": {
    "name": "trn2.48xlarge",
    "chip": "trn2",
    "instances": 1,
    "chips": 16,
    "world": 64
  },
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "precision": {
    "compute": "bf16"
  },
  "steady": {
    "step_time_s": 4.634645161324,
    "step_time_s_interval": {
      "low": 4.089983419131989,
      "high": 5.251839327980118,
      "level": 0.8,
      "log_sigma": 0.09755262854204862,
      "parts": {
        "parameters": 0.020002123273865736,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.020002123273865736
      },
      "why": []
    },
    "tokens_per_s": 14140.456867528135,
    "tokens_per_s_interval": {
      "low": 12478.675737630658,
      "high": 16023.53684209033,
      "level": 0.8,
      "log_sigma": 0.09755262854204862,
      "parts": {
        "parameters": 0.020002123273865736,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.020002123273865736
      },
      "why": []
    },
    "mfu": 0.27135223137125347,
    "mfu_interval": {
      "low": 0.23946302002025213,
      "high": 0.3074881184741217,
      "level": 0.8,
      "log_sigma": 0.09755262854204862,
      "parts": {
        "parameters": 0.020002123273865736,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.020002123273865736
      },
      "why": []
    },
    "model_flops": 1.342133457911808e+16,
    "breakdown": {
      "compute": 4.41411641879183,
      "memory_bound": 0.001937535002171887,
      "exposed_communication": 0.2185912075299985,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.2199689387599975,
      "vector": 0.1719462665170028,
      "scalar": 0.02390473864099997,
      "gpsimd": 0.00023400987600059875
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 580,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 14412561144,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 1535724528,
      "gradients": 1279770440,
      "optimizer": 6142898112,
      "activations": 3306684416,
      "workspace": 2147483648
    }
  },
  "roofline": {
    "scope": "rank 0: one logical NeuronCore (LNC 2)",
    "peak_bf16_flop_per_s": 166750000000000.0,
    "hbm_bandwidth_B_per_s": 725000000000.0,
    "points": [
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169280004,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.6
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.512020716928,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.664
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279996,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.72
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5119247169280001,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953917.016
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25666062284799973,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430547.92
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2560583584640004,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.625
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846399994,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.74
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2559623584639996,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67118732953917.125
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.1879064843520002,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.484
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999967,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.54
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999935,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.75
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999913,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.89
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10238494336000037,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67118732970698.94
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08200395468799915,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731326.88
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799994,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.23
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799994,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.23
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799966,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.45
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800045,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.34
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800014,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.586
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023758006395999898,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67058001618698.06
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023753301206000055,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.34
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023751801206000067,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67075520611781.74
      }
    ]
  },
  "sim": {
    "events": 1042050,
    "ops": 3148,
    "simulated_ops": 3148,
    "simulated_ranks": 1,
    "sibling_collectives": 6360,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 7.91664792
  }
}
','',NULL,NULL,NULL,NULL,1,16,'trn2.48xlarge',NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips:system=trn2.48xlarge;system.instances=2;parallel.dp=2;batch.global_batch=32',4,'qwen3-32b-chips','system=trn2.48xlarge;system.instances=2;parallel.dp=2;batch.global_batch=32','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "0f94723079221076",
  "scenario": "qwen3-32b-trn2",
  "mode": "compiled",
  "system": {
    "name": "trn2.48xlarge",
    "chip": "trn2",
    "instances": 2,
    "chips": 32,
    "world": 128
  },
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "precision": {
    "compute": "bf16"
  },
  "steady": {
    "step_time_s": 4.655781873801001,
    "step_time_s_interval": {
      "low": 4.108730465856299,
      "high": 5.2756697078440276,
      "level": 0.8,
      "log_sigma": 0.09753471706705584,
      "parts": {
        "parameters": 0.019914583434022328,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.019914583434022328
      },
      "why": []
    },
    "tokens_per_s": 28152.52165003002,
    "tokens_per_s_interval": {
      "low": 24844.618268106915,
      "high": 31900.851391740864,
      "level": 0.8,
      "log_sigma": 0.09753471706705584,
      "parts": {
        "parameters": 0.019914583434022328,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.019914583434022328
      },
      "why": []
    },
    "mfu": 0.2701203235521261,
    "mfu_interval": {
      "low": 0.23838135739797742,
      "high": 0.30608513179195607,
      "level": 0.8,
      "log_sigma": 0.09753471706705584,
      "parts": {
        "parameters": 0.019914583434022328,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.019914583434022328
      },
      "why": []
    },
    "model_flops": 2.684266915823616e+16,
    "breakdown": {
      "compute": 4.414116418791832,
      "memory_bound": 0.0019375350021706946,
      "exposed_communication": 0.23972792000699794,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.21996893876,
      "vector": 0.17194626651700123,
      "scalar": 0.02390473864100086,
      "gpsimd": 0.00023400987600059875
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 645,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 14412561144,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 1535724528,
      "gradients": 1279770440,
      "optimizer": 6142898112,
      "activations": 3306684416,
      "workspace": 2147483648
    }
  },
  "roofline": {
    "scope": "rank 0: one logical NeuronCore (LNC 2)",
    "peak_bf16_flop_per_s": 166750000000000.0,
    "hbm_bandwidth_B_per_s": 725000000000.0,
    "points": [
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.512020716928,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.664
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.512020716928,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.664
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279991,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.78
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5119247169280012,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953916.87
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25666062284799973,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430547.92
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2560583584640004,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.625
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846399994,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.74
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2559623584640003,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67118732953916.95
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.18790648435199975,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.625
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000091,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858166.734
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.1024809433599998,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.46
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999967,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.54
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10238494335999904,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67118732970699.81
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08200395468799981,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731326.336
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468800083,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970698.5
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.0819079546880006,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970698.68
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799966,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.45
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800045,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.34
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799859,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290456.79
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023758006395999898,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67058001618698.06
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023753301206000055,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.34
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023751801206000067,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67075520611781.74
      }
    ]
  },
  "sim": {
    "events": 1065116,
    "ops": 3213,
    "simulated_ops": 3213,
    "simulated_ranks": 1,
    "sibling_collectives": 10455,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 7.606605405
  }
}
','',NULL,NULL,NULL,NULL,2,32,'trn2.48xlarge',2);
INSERT INTO "points" VALUES('qwen3-32b-chips:system=trn3-gen1-ultraserver;parallel.dp=4;batch.global_batch=64',6,'qwen3-32b-chips','system=trn3-gen1-ultraserver;parallel.dp=4;batch.global_batch=64','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "0ad7e194428cd321",
  "scenario": "qwen3-32b-trn2",
  "mode": "compiled",
  "system": {
    "name": "trn3-gen1-ultraserver",
    "chip": "trn3",
    "instances": 1,
    "chips": 64,
    "world": 256
  },
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "precision": {
    "compute": "bf16"
  },
  "steady": {
    "step_time_s": 4.491856458628001,
    "step_time_s_interval": {
      "low": 3.770343293949544,
      "high": 5.351442261848344,
      "level": 0.8,
      "log_sigma": 0.13663127544495016,
      "parts": {
        "parameters": 0.020862517338850587,
        "structural": 0.09548,
        "distance": 0.09548
      },
      "parameters": {
        "kernel_efficiency": -0.020862517338850587
      },
      "why": [
        "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
      ]
    },
    "tokens_per_s": 58359.834606128454,
    "tokens_per_s_interval": {
      "low": 48985.67286596447,
      "high": 69527.88633880512,
      "level": 0.8,
      "log_sigma": 0.13663127544495016,
      "parts": {
        "parameters": 0.020862517338850587,
        "structural": 0.09548,
        "distance": 0.09548
      },
      "parameters": {
        "kernel_efficiency": 0.020862517338850587
      },
      "why": [
        "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
      ]
    },
    "mfu": 0.2783090511238322,
    "mfu_interval": {
      "low": 0.23360511944558165,
      "high": 0.33156776752699213,
      "level": 0.8,
      "log_sigma": 0.13663127544495016,
      "parts": {
        "parameters": 0.020862517338850587,
        "structural": 0.09548,
        "distance": 0.09548
      },
      "parameters": {
        "kernel_efficiency": 0.020862517338850587
      },
      "why": [
        "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
      ]
    },
    "model_flops": 5.368533831647232e+16,
    "breakdown": {
      "compute": 4.37972716560817,
      "memory_bound": 0.001154999925831866,
      "exposed_communication": 0.11097429309399942,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.21996893876,
      "vector": 0.13755701348300103,
      "scalar": 0.023215413291000464,
      "gpsimd": 0.00014080000000024802
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 645,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 14412561144,
    "hbm_capacity_bytes": 38654705664,
    "categories": {
      "weights": 1535724528,
      "gradients": 1279770440,
      "optimizer": 6142898112,
      "activations": 3306684416,
      "workspace": 2147483648
    }
  },
  "roofline": {
    "scope": "rank 0: one logical NeuronCore (LNC 2)",
    "peak_bf16_flop_per_s": 167750000000000.0,
    "hbm_bandwidth_B_per_s": 1225000000000.0,
    "points": [
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169280013,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.484
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279998,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.69
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279987,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.836
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.511924716927999,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953917.16
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25666062284799884,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430548.15
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846399994,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.74
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846399994,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.74
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25596235846400006,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67118732953917.016
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.18790648435200108,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.21
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000135,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858166.44
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000033,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.11
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999958,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.6
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10238494336000037,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67118732970698.94
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08200395468800004,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731326.16
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468800023,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970698.99
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799927,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.77
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799883,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970700.14
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800081,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.06
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799987,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.8
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.02375800639600012,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67058001618697.43
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023753301206000055,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.34
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023751801206000067,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67075520611781.74
      }
    ]
  },
  "sim": {
    "events": 319596,
    "ops": 3213,
    "simulated_ops": 3213,
    "simulated_ranks": 1,
    "sibling_collectives": 6425,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 12.490090686
  }
}
','',NULL,NULL,NULL,NULL,4,64,'trn3-gen1-ultraserver',NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips:system=trn2-ultraserver;parallel.dp=4;batch.global_batch=64',5,'qwen3-32b-chips','system=trn2-ultraserver;parallel.dp=4;batch.global_batch=64','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "051a779e210e18f4",
  "scenario": "qwen3-32b-trn2",
  "mode": "compiled",
  "system": {
    "name": "trn2-ultraserver",
    "chip": "trn2",
    "instances": 1,
    "chips": 64,
    "world": 256
  },
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "precision": {
    "compute": "bf16"
  },
  "steady": {
    "step_time_s": 4.637784238669,
    "step_time_s_interval": {
      "low": 4.09276829482971,
      "high": 5.255377557439159,
      "level": 0.8,
      "log_sigma": 0.09754982562571128,
      "parts": {
        "parameters": 0.01998844865432729,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.01998844865432729
      },
      "why": []
    },
    "tokens_per_s": 56523.543681547555,
    "tokens_per_s_interval": {
      "low": 49881.09743493626,
      "high": 64050.53526513089,
      "level": 0.8,
      "log_sigma": 0.09754982562571128,
      "parts": {
        "parameters": 0.01998844865432729,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.01998844865432729
      },
      "why": []
    },
    "mfu": 0.27116856701815345,
    "mfu_interval": {
      "low": 0.23930179942239285,
      "high": 0.30727889182682816,
      "level": 0.8,
      "log_sigma": 0.09754982562571128,
      "parts": {
        "parameters": 0.01998844865432729,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.01998844865432729
      },
      "why": []
    },
    "model_flops": 5.368533831647232e+16,
    "breakdown": {
      "compute": 4.414116418791829,
      "memory_bound": 0.001937535002171887,
      "exposed_communication": 0.22173028487499913,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.2199689387599975,
      "vector": 0.1719462665170019,
      "scalar": 0.02390473864099997,
      "gpsimd": 0.00023400987600059875
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 645,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 14412561144,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 1535724528,
      "gradients": 1279770440,
      "optimizer": 6142898112,
      "activations": 3306684416,
      "workspace": 2147483648
    }
  },
  "roofline": {
    "scope": "rank 0: one logical NeuronCore (LNC 2)",
    "peak_bf16_flop_per_s": 166750000000000.0,
    "hbm_bandwidth_B_per_s": 725000000000.0,
    "points": [
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169280004,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.6
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.512020716928,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.664
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279996,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.72
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5119247169280001,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953917.016
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25666062284799973,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430547.92
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2560583584640004,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.625
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846399994,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.74
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2559623584639996,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67118732953917.125
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.1879064843520002,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.484
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999967,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.54
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999935,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.75
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999913,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.89
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10238494336000037,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67118732970698.94
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08200395468799915,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731326.88
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799994,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.23
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799994,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.23
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799966,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.45
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800045,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.34
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800014,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.586
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023758006395999898,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67058001618698.06
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023753301206000055,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.34
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023751801206000067,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67075520611781.74
      }
    ]
  },
  "sim": {
    "events": 4110286,
    "ops": 3213,
    "simulated_ops": 3213,
    "simulated_ranks": 1,
    "sibling_collectives": 31275,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 38.507917096
  }
}
','',NULL,NULL,NULL,NULL,4,64,'trn2-ultraserver',NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips:system=trn3-gen2-ultraserver;parallel.dp=9;batch.global_batch=144',7,'qwen3-32b-chips','system=trn3-gen2-ultraserver;parallel.dp=9;batch.global_batch=144','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "3288a7fb4ae4b637",
  "scenario": "qwen3-32b-trn2",
  "mode": "compiled",
  "system": {
    "name": "trn3-gen2-ultraserver",
    "chip": "trn3",
    "instances": 1,
    "chips": 144,
    "world": 576
  },
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "precision": {
    "compute": "bf16"
  },
  "steady": {
    "step_time_s": 4.552989753507,
    "step_time_s_interval": {
      "low": 3.821948295141757,
      "high": 5.4238608413123135,
      "level": 0.8,
      "log_sigma": 0.1365717878614535,
      "parts": {
        "parameters": 0.020469304816574985,
        "structural": 0.09548,
        "distance": 0.09548
      },
      "parameters": {
        "kernel_efficiency": -0.020469304816574985
      },
      "why": [
        "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
      ]
    },
    "tokens_per_s": 129546.52479630122,
    "tokens_per_s_interval": {
      "low": 108746.15283405593,
      "high": 154325.4786439028,
      "level": 0.8,
      "log_sigma": 0.1365717878614535,
      "parts": {
        "parameters": 0.020469304816574985,
        "structural": 0.09548,
        "distance": 0.09548
      },
      "parameters": {
        "kernel_efficiency": 0.020469304816574985
      },
      "why": [
        "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
      ]
    },
    "mfu": 0.2745721770672318,
    "mfu_interval": {
      "low": 0.23048605879843076,
      "high": 0.3270908479777978,
      "level": 0.8,
      "log_sigma": 0.1365717878614535,
      "parts": {
        "parameters": 0.020469304816574985,
        "structural": 0.09548,
        "distance": 0.09548
      },
      "parameters": {
        "kernel_efficiency": 0.020469304816574985
      },
      "why": [
        "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
      ]
    },
    "model_flops": 1.2079201121206272e+17,
    "breakdown": {
      "compute": 4.379727165608177,
      "memory_bound": 0.0011549999258232688,
      "exposed_communication": 0.17210758797299963,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.2199689387600134,
      "vector": 0.13755701348299096,
      "scalar": 0.023215413290995315,
      "gpsimd": 0.00014080000000024628
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 645,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 14412561144,
    "hbm_capacity_bytes": 38654705664,
    "categories": {
      "weights": 1535724528,
      "gradients": 1279770440,
      "optimizer": 6142898112,
      "activations": 3306684416,
      "workspace": 2147483648
    }
  },
  "roofline": {
    "scope": "rank 0: one logical NeuronCore (LNC 2)",
    "peak_bf16_flop_per_s": 167750000000000.0,
    "hbm_bandwidth_B_per_s": 1225000000000.0,
    "points": [
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169280067,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700680.79
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279999,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.68
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.512020716927998,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.92
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5119247169280017,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953916.805
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2566606228480002,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430547.805
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25605835846400105,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.45
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2560583584640001,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.695
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2559623584640034,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67118732953916.14
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.1879064843520004,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.414
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000002,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.31
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999802,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858168.62
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999736,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858169.055
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10238494336000437,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67118732970696.32
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08200395468800448,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731322.52
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468800349,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970696.32
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468800009,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970699.1
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.08190795468799728,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67118732970701.414
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799995,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.734
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799726,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290457.83
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.02375800639600012,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67058001618697.43
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023753301205999833,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.97
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 742064128,
        "busy_s": 0.023751801205999845,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67075520611782.375
      }
    ]
  },
  "sim": {
    "events": 4214107,
    "ops": 3213,
    "simulated_ops": 3213,
    "simulated_ranks": 1,
    "sibling_collectives": 57590,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 50.714298016
  }
}
','',NULL,NULL,NULL,NULL,9,144,'trn3-gen2-ultraserver',NULL);
COMMIT;
