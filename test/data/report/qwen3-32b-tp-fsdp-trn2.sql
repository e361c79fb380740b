BEGIN TRANSACTION;
CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, status TEXT, result TEXT, reason TEXT, "parallel.tp", "parallel.fsdp", "batch.global_batch", "mode");
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=1;parallel.fsdp=64;batch.global_batch=64;mode=compiled',1,'qwen3-32b-tp-fsdp-trn2','parallel.tp=1;parallel.fsdp=64;batch.global_batch=64;mode=compiled','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "51147c84214c3b55",
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
    "step_time_s": 17.354707094393003,
    "step_time_s_interval": {
      "low": 15.308823932402142,
      "high": 19.674003676709287,
      "level": 0.8,
      "log_sigma": 0.09787696852353359,
      "parts": {
        "parameters": 0.021528366574284842,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.021528366574284842
      },
      "why": []
    },
    "tokens_per_s": 15105.066226366567,
    "tokens_per_s_interval": {
      "low": 13324.385026436405,
      "high": 17123.719049714513,
      "level": 0.8,
      "log_sigma": 0.09787696852353359,
      "parts": {
        "parameters": 0.021528366574284842,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.021528366574284842
      },
      "why": []
    },
    "mfu": 0.28986287104679864,
    "mfu_interval": {
      "low": 0.25569199372023343,
      "high": 0.3286003710519947,
      "level": 0.8,
      "log_sigma": 0.09787696852353359,
      "parts": {
        "parameters": 0.021528366574284842,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.021528366574284842
      },
      "why": []
    },
    "model_flops": 5.368533831647232e+16,
    "breakdown": {
      "compute": 17.274792852663953,
      "memory_bound": 0.004001664970050773,
      "exposed_communication": 0.07591257675899854,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 16.873808786551,
      "vector": 0.3091366665170029,
      "scalar": 0.09561505468999955,
      "gpsimd": 0.00023400987600148693
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 195,
      "host": 262,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 18583137504,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 3071449056,
      "gradients": 2047632704,
      "optimizer": 6142898112,
      "activations": 5173673984,
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
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.04779486784,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443953.57
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.0477948678399986,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443953.62
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.047794867839995,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443953.734
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.047698867839995,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67118732949721.66
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.023945433920007,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233185.836
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339200034,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.07
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.023945433919999,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.36
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0238494339199953,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67118732949721.8
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 43991202529280.0,
        "hbm_bytes": 19327352832,
        "busy_s": 0.7516259373440022,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052776797.96
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.4096357735680023,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370473.07
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.40963577356799996,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370473.445
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.40963577356799696,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370473.94
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.40953977356799953,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67118732949721.57
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.32772781888000324,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67099072122320.11
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.32763181888000315,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67118732944476.42
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.32763181888000137,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67118732944476.79
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.32763181888000054,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67118732944476.96
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 17596481011712.0,
        "hbm_bytes": 9663676416,
        "busy_s": 0.3007463749759991,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58509370272929.4
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 17596481011712.0,
        "hbm_bytes": 9663676416,
        "busy_s": 0.3007463749759971,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58509370272929.79
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 6372657725440.0,
        "hbm_bytes": 2842427392,
        "busy_s": 0.0949522425380005,
        "intensity_flop_per_B": 2241.977312551877,
        "achieved_flop_per_s": 67114346697916.29
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 6372657725440.0,
        "hbm_bytes": 2842427392,
        "busy_s": 0.09495074253799984,
        "intensity_flop_per_B": 2241.977312551877,
        "achieved_flop_per_s": 67115406947866.945
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 6372657725440.0,
        "hbm_bytes": 2842427392,
        "busy_s": 0.09494753734700012,
        "intensity_flop_per_B": 2241.977312551877,
        "achieved_flop_per_s": 67117672595869.016
      }
    ]
  },
  "sim": {
    "events": 3703280,
    "ops": 2763,
    "simulated_ops": 2763,
    "simulated_ranks": 1,
    "sibling_collectives": 0,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 29.22016557
  }
}
','',1,64,64,'compiled');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=1;parallel.fsdp=64;batch.global_batch=64;mode=eager',0,'qwen3-32b-tp-fsdp-trn2','parallel.tp=1;parallel.fsdp=64;batch.global_batch=64;mode=eager','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "9483c113f2874328",
  "scenario": "qwen3-32b-trn2",
  "mode": "eager",
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
    "step_time_s": 19.684216810711,
    "step_time_s_interval": {
      "low": 17.369679165342703,
      "high": 22.307170314589566,
      "level": 0.8,
      "log_sigma": 0.09760904792743323,
      "parts": {
        "parameters": 0.020275498447632788,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.018983922463750632,
        "eager_dispatch": 0.007120851437171245
      },
      "why": []
    },
    "tokens_per_s": 13317.471684083288,
    "tokens_per_s_interval": {
      "low": 11751.557741438406,
      "high": 15092.046174522873,
      "level": 0.8,
      "log_sigma": 0.09760904792743323,
      "parts": {
        "parameters": 0.020275498447632788,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.018983922463750632,
        "eager_dispatch": -0.007120851437171245
      },
      "why": []
    },
    "mfu": 0.255559328213643,
    "mfu_interval": {
      "low": 0.22550978692563764,
      "high": 0.28961301913936366,
      "level": 0.8,
      "log_sigma": 0.09760904792743323,
      "parts": {
        "parameters": 0.020275498447632788,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.018983922463750632,
        "eager_dispatch": -0.007120851437171245
      },
      "why": []
    },
    "model_flops": 5.368533831647232e+16,
    "breakdown": {
      "compute": 17.274792852852972,
      "memory_bound": 0.04590945471082819,
      "exposed_communication": 1.7138779431470006,
      "host_dispatch": 0.6496365600002001,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 16.87448228655089,
      "vector": 0.32787448271897396,
      "scalar": 0.11811152841793172,
      "gpsimd": 0.00023400987600148693
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 195,
      "host": 2763,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 18583137504,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 3071449056,
      "gradients": 2047632704,
      "optimizer": 6142898112,
      "activations": 5173673984,
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
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.047794867840005,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443953.414
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.0477948678399907,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443953.875
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.0477948678399622,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443954.81
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 137438953472000.0,
        "hbm_bytes": 63082332160,
        "busy_s": 2.047794867839947,
        "intensity_flop_per_B": 2178.723404255319,
        "achieved_flop_per_s": 67115586443955.305
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339200487,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233183.1
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339200011,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.21
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.023945433919942,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233190.086
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339199332,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233190.664
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 43991202529280.0,
        "hbm_bytes": 19327352832,
        "busy_s": 0.7517219373439783,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58520578346711.45
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.40963577356803693,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370467.39
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.4096357735679992,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370473.58
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.40963577356798275,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370476.266
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 27487790694400.0,
        "hbm_bytes": 14763950080,
        "busy_s": 0.40963577356797476,
        "intensity_flop_per_B": 1861.8181818181818,
        "achieved_flop_per_s": 67103003370477.58
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.32772781888001656,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67099072122317.38
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.327727818880013,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67099072122318.11
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.327727818880005,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67099072122319.75
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 21990232555520.0,
        "hbm_bytes": 12348030976,
        "busy_s": 0.32772781887999364,
        "intensity_flop_per_B": 1780.8695652173913,
        "achieved_flop_per_s": 67099072122322.08
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 17596481011712.0,
        "hbm_bytes": 9663676416,
        "busy_s": 0.3007463749760557,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58509370272918.38
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 17596481011712.0,
        "hbm_bytes": 9663676416,
        "busy_s": 0.30074637497600476,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58509370272928.3
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 6372657725440.0,
        "hbm_bytes": 2842427392,
        "busy_s": 0.09495224253799961,
        "intensity_flop_per_B": 2241.977312551877,
        "achieved_flop_per_s": 67114346697916.914
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 6372657725440.0,
        "hbm_bytes": 2842427392,
        "busy_s": 0.09495224253799961,
        "intensity_flop_per_B": 2241.977312551877,
        "achieved_flop_per_s": 67114346697916.914
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 6372657725440.0,
        "hbm_bytes": 2842427392,
        "busy_s": 0.09494753734700012,
        "intensity_flop_per_B": 2241.977312551877,
        "achieved_flop_per_s": 67117672595869.016
      }
    ]
  },
  "sim": {
    "events": 3709816,
    "ops": 2763,
    "simulated_ops": 2763,
    "simulated_ranks": 1,
    "sibling_collectives": 0,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 29.345763593
  }
}
','',1,64,64,'eager');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=2;parallel.fsdp=32;batch.global_batch=32;mode=eager',2,'qwen3-32b-tp-fsdp-trn2','parallel.tp=2;parallel.fsdp=32;batch.global_batch=32;mode=eager','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "b8ac7166df168a49",
  "scenario": "qwen3-32b-trn2",
  "mode": "eager",
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
    "step_time_s": 10.51079060846,
    "step_time_s_interval": {
      "low": 9.266693116105841,
      "high": 11.92191408851972,
      "level": 0.8,
      "log_sigma": 0.09829945489962122,
      "parts": {
        "parameters": 0.02337418305658336,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.017744146886979704,
        "eager_dispatch": 0.01521504797284442
      },
      "why": []
    },
    "tokens_per_s": 12470.23224822896,
    "tokens_per_s_interval": {
      "low": 10994.20772761788,
      "high": 14144.420059858485,
      "level": 0.8,
      "log_sigma": 0.09829945489962122,
      "parts": {
        "parameters": 0.02337418305658336,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.017744146886979704,
        "eager_dispatch": -0.01521504797284442
      },
      "why": []
    },
    "mfu": 0.23930099133113872,
    "mfu_interval": {
      "low": 0.21097640811726442,
      "high": 0.2714282841531592,
      "level": 0.8,
      "log_sigma": 0.09829945489962122,
      "parts": {
        "parameters": 0.02337418305658336,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.017744146886979704,
        "eager_dispatch": -0.01521504797284442
      },
      "why": []
    },
    "model_flops": 2.684266915823616e+16,
    "breakdown": {
      "compute": 8.700633734650452,
      "memory_bound": 0.030125078197550944,
      "exposed_communication": 1.0398740356119962,
      "host_dispatch": 0.7401577600000007,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 8.438214207995994,
      "vector": 0.23317098076700796,
      "scalar": 0.05913961420900145,
      "gpsimd": 0.0002340098760014852
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 580,
      "host": 3148,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 15802753264,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 2047632704,
      "gradients": 1535724528,
      "optimizer": 6142898112,
      "activations": 3929014272,
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
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339200003,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.27
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339199998,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.3
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339199998,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.3
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.023945433919999,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.36
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279993,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.75
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279993,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.75
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279976,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.984
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279976,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.984
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 21995601264640.0,
        "hbm_bytes": 9663676416,
        "busy_s": 0.3759089687040009,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58513105820467.47
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.2048658867840012,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162093.98
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.2048658867840003,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162094.266
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.20486588678399986,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162094.41
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.20486588678399853,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162094.84
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.16391190944000167,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67079422815122.86
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.16391190943999956,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67079422815123.73
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.16391190943999945,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67079422815123.766
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.16391190943999945,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67079422815123.766
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 8798240505856.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.15042118745600197,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58490699712296.016
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 8798240505856.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.15042118745599792,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58490699712297.59
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 3186328862720.0,
        "hbm_bytes": 1442185216,
        "busy_s": 0.04751451279200003,
        "intensity_flop_per_B": 2209.3756248295917,
        "achieved_flop_per_s": 67060118592997.1
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 3186328862720.0,
        "hbm_bytes": 1442185216,
        "busy_s": 0.047486281649999906,
        "intensity_flop_per_B": 2209.3756248295917,
        "achieved_flop_per_s": 67099986606763.65
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 3186328862720.0,
        "hbm_bytes": 1442185216,
        "busy_s": 0.047486281649999906,
        "intensity_flop_per_B": 2209.3756248295917,
        "achieved_flop_per_s": 67099986606763.65
      }
    ]
  },
  "sim": {
    "events": 1860306,
    "ops": 3148,
    "simulated_ops": 3148,
    "simulated_ranks": 1,
    "sibling_collectives": 12130,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 16.246082195
  }
}
','',2,32,32,'eager');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=2;parallel.fsdp=32;batch.global_batch=32;mode=compiled',3,'qwen3-32b-tp-fsdp-trn2','parallel.tp=2;parallel.fsdp=32;batch.global_batch=32;mode=compiled','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "88f74b6a290f423c",
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
    "step_time_s": 8.892970693138,
    "step_time_s_interval": {
      "low": 7.844990040253963,
      "high": 10.08094686458661,
      "level": 0.8,
      "log_sigma": 0.0978392456493156,
      "parts": {
        "parameters": 0.021356207276272715,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.021356207276272715
      },
      "why": []
    },
    "tokens_per_s": 14738.831884506024,
    "tokens_per_s_interval": {
      "low": 13001.953264969905,
      "high": 16707.733129990927,
      "level": 0.8,
      "log_sigma": 0.0978392456493156,
      "parts": {
        "parameters": 0.021356207276272715,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.021356207276272715
      },
      "why": []
    },
    "mfu": 0.28283491524596094,
    "mfu_interval": {
      "low": 0.2495045997230979,
      "high": 0.32061769350532865,
      "level": 0.8,
      "log_sigma": 0.0978392456493156,
      "parts": {
        "parameters": 0.021356207276272715,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.021356207276272715
      },
      "why": []
    },
    "model_flops": 2.684266915823616e+16,
    "breakdown": {
      "compute": 8.700633734496998,
      "memory_bound": 0.0026255606769992365,
      "exposed_communication": 0.18971139796400216,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 8.437540707995984,
      "vector": 0.21767639989301324,
      "scalar": 0.047808177409002825,
      "gpsimd": 0.00023400987599971057
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
    "per_rank_bytes": 15802753264,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 2047632704,
      "gradients": 1535724528,
      "optimizer": 6142898112,
      "activations": 3929014272,
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
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.023945433920007,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233185.836
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339199998,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.3
      },
      {
        "name": "mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0239454339199996,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67112440233186.31
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 68719476736000.0,
        "hbm_bytes": 32883343360,
        "busy_s": 1.0238494339199962,
        "intensity_flop_per_B": 2089.795918367347,
        "achieved_flop_per_s": 67118732949721.74
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.512020716927999,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.79
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279967,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700682.1
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5120207169279927,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700682.625
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 17783848960,
        "busy_s": 0.5119247169280032,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67118732953916.6
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 21995601264640.0,
        "hbm_bytes": 9663676416,
        "busy_s": 0.37581296870399905,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.695
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.2048658867840012,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162093.98
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.20486588678400053,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162094.19
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.20486588678399764,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67087281162095.13
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 13743895347200.0,
        "hbm_bytes": 8724152320,
        "busy_s": 0.2047698867840011,
        "intensity_flop_per_B": 1575.3846153846155,
        "achieved_flop_per_s": 67118732949721.13
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.163911909439999,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67079422815123.95
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.1638159094400008,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67118732944476.74
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.16381590943999713,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67118732944478.24
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 10995116277760.0,
        "hbm_bytes": 7516192768,
        "busy_s": 0.1638159094399949,
        "intensity_flop_per_B": 1462.857142857143,
        "achieved_flop_per_s": 67118732944479.16
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 8798240505856.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.15042118745599942,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58490699712297.016
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 8798240505856.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.15042118745599886,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58490699712297.23
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 3186328862720.0,
        "hbm_bytes": 1442185216,
        "busy_s": 0.04751451279200003,
        "intensity_flop_per_B": 2209.3756248295917,
        "achieved_flop_per_s": 67060118592997.1
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 3186328862720.0,
        "hbm_bytes": 1442185216,
        "busy_s": 0.047486281649999906,
        "intensity_flop_per_B": 2209.3756248295917,
        "achieved_flop_per_s": 67099986606763.65
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 3186328862720.0,
        "hbm_bytes": 1442185216,
        "busy_s": 0.0474847816499997,
        "intensity_flop_per_B": 2209.3756248295917,
        "achieved_flop_per_s": 67102106232808.6
      }
    ]
  },
  "sim": {
    "events": 1853461,
    "ops": 3148,
    "simulated_ops": 3148,
    "simulated_ranks": 1,
    "sibling_collectives": 12130,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 16.406134025
  }
}
','',2,32,32,'compiled');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=4;parallel.fsdp=16;batch.global_batch=16;mode=eager',4,'qwen3-32b-tp-fsdp-trn2','parallel.tp=4;parallel.fsdp=16;batch.global_batch=16;mode=eager','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "82bb02068d0d8adf",
  "scenario": "qwen3-32b-trn2",
  "mode": "eager",
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
    "step_time_s": 5.8966194305620006,
    "step_time_s_interval": {
      "low": 5.184270800879861,
      "high": 6.706848859627517,
      "level": 0.8,
      "log_sigma": 0.10046416930791695,
      "parts": {
        "parameters": 0.03125090262264122,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.015801588372177513,
        "eager_dispatch": 0.026961615672026564
      },
      "why": []
    },
    "tokens_per_s": 11114.16478064175,
    "tokens_per_s_interval": {
      "low": 9771.503931525858,
      "high": 12641.314953855688,
      "level": 0.8,
      "log_sigma": 0.10046416930791695,
      "parts": {
        "parameters": 0.03125090262264122,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.015801588372177513,
        "eager_dispatch": -0.026961615672026564
      },
      "why": []
    },
    "mfu": 0.2132783573620229,
    "mfu_interval": {
      "low": 0.1875129934281978,
      "high": 0.24258403051125538,
      "level": 0.8,
      "log_sigma": 0.10046416930791695,
      "parts": {
        "parameters": 0.03125090262264122,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.015801588372177513,
        "eager_dispatch": -0.026961615672026564
      },
      "why": []
    },
    "model_flops": 1.342133457911808e+16,
    "breakdown": {
      "compute": 4.414116419104934,
      "memory_bound": 0.02223291642706776,
      "exposed_communication": 0.7201123350299987,
      "host_dispatch": 0.7401577600000007,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.22064243876,
      "vector": 0.18581922972700132,
      "scalar": 0.029653657169000827,
      "gpsimd": 0.00023400987599970884
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 580,
      "host": 3148,
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
        "busy_s": 0.5120207169280002,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.63
      },
      {
        "name": "mlp_up_wgrad",
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
        "busy_s": 0.5120207169279989,
        "intensity_flop_per_B": 1932.0754716981132,
        "achieved_flop_per_s": 67106148700681.805
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
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.25666062284800106,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 66936131430547.57
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10234101760,
        "busy_s": 0.2560583584640008,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.51
      },
      {
        "name": "mlp_down_wgrad",
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
        "busy_s": 0.2560583584639998,
        "intensity_flop_per_B": 1678.688524590164,
        "achieved_flop_per_s": 67093569165465.77
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.18800248435199918,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58498166501505.875
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000202,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858166.01
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
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094336000069,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858166.875
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 5704253440,
        "busy_s": 0.10248094335999991,
        "intensity_flop_per_B": 1204.7058823529412,
        "achieved_flop_per_s": 67055858858167.38
      },
      {
        "name": "recompute_o_proj",
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
        "busy_s": 0.08200395468799981,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731326.336
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.0820039546879987,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731327.24
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 5100273664,
        "busy_s": 0.0820039546879987,
        "intensity_flop_per_B": 1077.8947368421052,
        "achieved_flop_per_s": 67040158731327.24
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
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799903,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290456.445
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
        "busy_s": 0.023753301206000055,
        "intensity_flop_per_B": 2146.9363242956815,
        "achieved_flop_per_s": 67071284851874.34
      }
    ]
  },
  "sim": {
    "events": 1048991,
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
    "wall_s": 9.200857079
  }
}
','',4,16,16,'eager');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=4;parallel.fsdp=16;batch.global_batch=16;mode=compiled',5,'qwen3-32b-tp-fsdp-trn2','parallel.tp=4;parallel.fsdp=16;batch.global_batch=16;mode=compiled','ok','{
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
    "wall_s": 10.024464542
  }
}
','',4,16,16,'compiled');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=8;parallel.fsdp=8;batch.global_batch=16;mode=eager',6,'qwen3-32b-tp-fsdp-trn2','parallel.tp=8;parallel.fsdp=8;batch.global_batch=16;mode=eager','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "4cbe39ec42cd9648",
  "scenario": "qwen3-32b-trn2",
  "mode": "eager",
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
    "step_time_s": 6.2790929893400005,
    "step_time_s_interval": {
      "low": 5.524514249645695,
      "high": 7.136737636491267,
      "level": 0.8,
      "log_sigma": 0.09990250900562543,
      "parts": {
        "parameters": 0.02939525311370987,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.014898583240622073,
        "eager_dispatch": 0.025339951125472302
      },
      "why": []
    },
    "tokens_per_s": 10437.176214982052,
    "tokens_per_s_interval": {
      "low": 9182.907280338299,
      "high": 11862.762414668952,
      "level": 0.8,
      "log_sigma": 0.09990250900562543,
      "parts": {
        "parameters": 0.02939525311370987,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.014898583240622073,
        "eager_dispatch": -0.025339951125472302
      },
      "why": []
    },
    "mfu": 0.20028709692216864,
    "mfu_interval": {
      "low": 0.1762179542244672,
      "high": 0.22764377994316976,
      "level": 0.8,
      "log_sigma": 0.09990250900562543,
      "parts": {
        "parameters": 0.02939525311370987,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.014898583240622073,
        "eager_dispatch": -0.025339951125472302
      },
      "why": []
    },
    "model_flops": 1.342133457911808e+16,
    "breakdown": {
      "compute": 4.533522685948046,
      "memory_bound": 0.03307597187296862,
      "exposed_communication": 0.9723365715189907,
      "host_dispatch": 0.7401577599999944,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.239467905755011,
      "vector": 0.2970116751450039,
      "scalar": 0.029653657169001417,
      "gpsimd": 0.00046541975199932556
    },
    "engine_ops": {
      "tensor": 1219,
      "vector": 1218,
      "scalar": 129,
      "gpsimd": 2,
      "collective": 580,
      "host": 3148,
      "dma": 0
    }
  },
  "memory": {
    "per_rank_bytes": 16712984572,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 1279770440,
      "gradients": 1151793396,
      "optimizer": 6142898112,
      "activations": 5991038976,
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
        "hbm_bytes": 16273899520,
        "busy_s": 0.5132252456959998,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 66948651992759.54
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 16273899520,
        "busy_s": 0.5132252456959985,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 66948651992759.71
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 16273899520,
        "busy_s": 0.5132252456959985,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 66948651992759.71
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 16273899520,
        "busy_s": 0.5120207169280053,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 67106148700680.96
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.2662968528000007,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 64513977553098.42
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.257865151616002,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 66623462210137.17
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.2560583584640035,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 67093569165464.81
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.25605835846400093,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 67093569165465.48
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.18800248435200073,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58498166501505.39
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10368547212800228,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 66276861478881.16
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10368547212800094,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 66276861478882.01
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10368547212800072,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 66276861478882.15
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10248094335999736,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 67055858858169.055
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08200395468800359,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67040158731323.25
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.0820039546880027,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67040158731323.98
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08200395468799945,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67040158731326.63
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08200395468799782,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67040158731327.97
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799956,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290456.04
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372799615,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290458.69
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 589529088,
        "busy_s": 0.02383799463300007,
        "intensity_flop_per_B": 2702.435662275582,
        "achieved_flop_per_s": 66832988927453.94
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 589529088,
        "busy_s": 0.023790942729000175,
        "intensity_flop_per_B": 2702.435662275582,
        "achieved_flop_per_s": 66965166093145.125
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 589529088,
        "busy_s": 0.023790942728999953,
        "intensity_flop_per_B": 2702.435662275582,
        "achieved_flop_per_s": 66965166093145.75
      }
    ]
  },
  "sim": {
    "events": 2220511,
    "ops": 3148,
    "simulated_ops": 3148,
    "simulated_ranks": 1,
    "sibling_collectives": 4060,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 33.509791147
  }
}
','',8,8,16,'eager');
INSERT INTO "points" VALUES('qwen3-32b-tp-fsdp-trn2:parallel.tp=8;parallel.fsdp=8;batch.global_batch=16;mode=compiled',7,'qwen3-32b-tp-fsdp-trn2','parallel.tp=8;parallel.fsdp=8;batch.global_batch=16;mode=compiled','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "a9faa384ec192e1b",
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
    "step_time_s": 4.983012483078,
    "step_time_s_interval": {
      "low": 4.399120468050188,
      "high": 5.644404054594282,
      "level": 0.8,
      "log_sigma": 0.09724930357752437,
      "parts": {
        "parameters": 0.018466094506242935,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": -0.018466094506242935
      },
      "why": []
    },
    "tokens_per_s": 13151.883568936697,
    "tokens_per_s_interval": {
      "low": 11610.791744552154,
      "high": 14897.523374495668,
      "level": 0.8,
      "log_sigma": 0.09724930357752437,
      "parts": {
        "parameters": 0.018466094506242935,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.018466094506242935
      },
      "why": []
    },
    "mfu": 0.25238172900630973,
    "mfu_interval": {
      "low": 0.22280851866294107,
      "high": 0.28588016974599084,
      "level": 0.8,
      "log_sigma": 0.09724930357752437,
      "parts": {
        "parameters": 0.018466094506242935,
        "structural": 0.09548,
        "distance": 0.0
      },
      "parameters": {
        "kernel_efficiency": 0.018466094506242935
      },
      "why": []
    },
    "model_flops": 1.342133457911808e+16,
    "breakdown": {
      "compute": 4.533522685804307,
      "memory_bound": 0.002028145116692828,
      "exposed_communication": 0.44746165215700007,
      "host_dispatch": 0.0,
      "pipeline_bubble": 0.0,
      "idle": 0.0
    },
    "engine_busy_s": {
      "tensor": 4.238794405754999,
      "vector": 0.27238626677300026,
      "scalar": 0.023904738641001066,
      "gpsimd": 0.00046541975200021374
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
    "per_rank_bytes": 16712984572,
    "hbm_capacity_bytes": 25769803776,
    "categories": {
      "weights": 1279770440,
      "gradients": 1151793396,
      "optimizer": 6142898112,
      "activations": 5991038976,
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
        "hbm_bytes": 16273899520,
        "busy_s": 0.513225245696,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 66948651992759.51
      },
      {
        "name": "recompute_mlp_up",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 16273899520,
        "busy_s": 0.5132252456959987,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 66948651992759.68
      },
      {
        "name": "mlp_up_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 16273899520,
        "busy_s": 0.5131292456960004,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 66961177239849.18
      },
      {
        "name": "mlp_up_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 34359738368000.0,
        "hbm_bytes": 16273899520,
        "busy_s": 0.512020716928,
        "intensity_flop_per_B": 2111.340206185567,
        "achieved_flop_per_s": 67106148700681.664
      },
      {
        "name": "mlp_down_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.2662008528000004,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 64537243225540.766
      },
      {
        "name": "mlp_down_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.2578651516160002,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 66623462210137.625
      },
      {
        "name": "recompute_mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.2560583584639997,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 67093569165465.8
      },
      {
        "name": "mlp_down",
        "engine": "tensor",
        "ops": 64,
        "flops": 17179869184000.0,
        "hbm_bytes": 10821304320,
        "busy_s": 0.2560583584639994,
        "intensity_flop_per_B": 1587.5968992248063,
        "achieved_flop_per_s": 67093569165465.89
      },
      {
        "name": "attention_bwd",
        "engine": "tensor",
        "ops": 64,
        "flops": 10997800632320.0,
        "hbm_bytes": 4831838208,
        "busy_s": 0.18790648435199886,
        "intensity_flop_per_B": 2276.1111111111113,
        "achieved_flop_per_s": 58528052771814.9
      },
      {
        "name": "qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10368547212800046,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 66276861478882.32
      },
      {
        "name": "recompute_qkv",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10368547212800028,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 66276861478882.44
      },
      {
        "name": "qkv_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.1035894721280004,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 66338282572853.28
      },
      {
        "name": "qkv_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 6871947673600.0,
        "hbm_bytes": 7549747200,
        "busy_s": 0.10248094335999958,
        "intensity_flop_per_B": 910.2222222222222,
        "achieved_flop_per_s": 67055858858167.6
      },
      {
        "name": "o_proj_dgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08200395468800026,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67040158731325.98
      },
      {
        "name": "o_proj_wgrad",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08190795468800038,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67118732970698.87
      },
      {
        "name": "o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08190795468800018,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67118732970699.04
      },
      {
        "name": "recompute_o_proj",
        "engine": "tensor",
        "ops": 64,
        "flops": 5497558138880.0,
        "hbm_bytes": 7113539584,
        "busy_s": 0.08190795468799927,
        "intensity_flop_per_B": 772.8301886792453,
        "achieved_flop_per_s": 67118732970699.77
      },
      {
        "name": "recompute_attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800059,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.234
      },
      {
        "name": "attention",
        "engine": "tensor",
        "ops": 64,
        "flops": 4399120252928.0,
        "hbm_bytes": 2415919104,
        "busy_s": 0.07525859372800003,
        "intensity_flop_per_B": 1820.888888888889,
        "achieved_flop_per_s": 58453394290455.67
      },
      {
        "name": "lm_head_dgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 589529088,
        "busy_s": 0.023837994632999848,
        "intensity_flop_per_B": 2702.435662275582,
        "achieved_flop_per_s": 66832988927454.555
      },
      {
        "name": "lm_head",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 589529088,
        "busy_s": 0.023790942729000175,
        "intensity_flop_per_B": 2702.435662275582,
        "achieved_flop_per_s": 66965166093145.125
      },
      {
        "name": "lm_head_wgrad",
        "engine": "tensor",
        "ops": 1,
        "flops": 1593164431360.0,
        "hbm_bytes": 589529088,
        "busy_s": 0.023789442728999965,
        "intensity_flop_per_B": 2702.435662275582,
        "achieved_flop_per_s": 66969388459776.32
      }
    ]
  },
  "sim": {
    "events": 2489395,
    "ops": 3148,
    "simulated_ops": 3148,
    "simulated_ranks": 1,
    "sibling_collectives": 4060,
    "reductions": {
      "ranks": "one per stage",
      "microbatches_simulated": [
        1
      ],
      "steady_period_s": 0.0,
      "steady_error_bound": 0.0
    },
    "wall_s": 42.063083397
  }
}
','',8,8,16,'compiled');
COMMIT;
