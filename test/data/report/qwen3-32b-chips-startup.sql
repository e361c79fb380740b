BEGIN TRANSACTION;
CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, status TEXT, result TEXT, reason TEXT, "system.chips", "system.topology.dims", "system.efa.nics", "parallel.fsdp", "parallel.dp", "batch.global_batch", "system", "system.instances");
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system.chips=1;system.topology.dims=[{size: 1, link_bandwidth: "256 GB/s"}];system.efa.nics=1;parallel.fsdp=1;parallel.dp=1;batch.global_batch=1',0,'qwen3-32b-chips-startup','system.chips=1;system.topology.dims=[{size: 1, link_bandwidth: "256 GB/s"}];system.efa.nics=1;parallel.fsdp=1;parallel.dp=1;batch.global_batch=1','infeasible','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "b697f7b909756c5e",
  "infeasible": {
    "kind": "oom",
    "message": "qwen3-32b-trn2: does not fit in HBM: 127.13 GiB per rank needed, 24.00 GiB available (use --allow-oom to estimate anyway)"
  }
}
','trnsim: error: qwen3-32b-trn2: does not fit in HBM: 127.13 GiB per rank needed, 24.00 GiB available (use --allow-oom to estimate anyway)',1,'[{size: 1, link_bandwidth: "256 GB/s"}]',1,1,1,1,NULL,NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system.chips=4;system.topology.dims=[{size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=4;parallel.fsdp=4;parallel.dp=1;batch.global_batch=4',1,'qwen3-32b-chips-startup','system.chips=4;system.topology.dims=[{size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=4;parallel.fsdp=4;parallel.dp=1;batch.global_batch=4','infeasible','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "fbac137c5397f531",
  "infeasible": {
    "kind": "oom",
    "message": "qwen3-32b-trn2: does not fit in HBM: 36.31 GiB per rank needed, 24.00 GiB available (use --allow-oom to estimate anyway)"
  }
}
','trnsim: error: qwen3-32b-trn2: does not fit in HBM: 36.31 GiB per rank needed, 24.00 GiB available (use --allow-oom to estimate anyway)',4,'[{size: 4, link_bandwidth: "256 GB/s"}]',4,4,1,4,NULL,NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system.chips=8;system.topology.dims=[{size: 2, link_bandwidth: "256 GB/s"}, {size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=8;parallel.fsdp=8;parallel.dp=1;batch.global_batch=8',2,'qwen3-32b-chips-startup','system.chips=8;system.topology.dims=[{size: 2, link_bandwidth: "256 GB/s"}, {size: 4, link_bandwidth: "256 GB/s"}];system.efa.nics=8;parallel.fsdp=8;parallel.dp=1;batch.global_batch=8','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "92c8f204782565c9",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 21% faster per step and overtakes eager after 54 steps; its first step is led by compile (47%), eager''s by weight_init (37%)",
  "tokens_per_step": 32768,
  "eager": {
    "first_step": {
      "total_s": 189.47934166795488,
      "total_s_interval": {
        "low": 152.0027775564314,
        "high": 236.19582152433185,
        "level": 0.8,
        "log_sigma": 0.17196437172316084,
        "parts": {
          "parameters": 0.15729295206750388,
          "structural": 0.06950303858128341,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.15728629068936342,
          "kernel_efficiency": -0.0007208621826747086,
          "eager_dispatch": 0.001255344177797483
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 70.5612330072896,
        "graph_capture": 0.0,
        "compile": 37.23322022704,
        "neff_load": 31.664962999999986,
        "collective_bootstrap": 15.0,
        "first_execution": 8.699925433625323
      },
      "ratio_to_steady": 32.16820532299083
    },
    "steady": {
      "step_time_s": 5.890267727573001,
      "step_time_s_interval": {
        "low": 5.178617371289009,
        "high": 6.699713729545538,
        "level": 0.8,
        "log_sigma": 0.10047457388894716,
        "parts": {
          "parameters": 0.03128433470869254,
          "structural": 0.09548,
          "distance": 0.0
        },
        "parameters": {
          "kernel_efficiency": -0.015818763318848735,
          "eager_dispatch": 0.026990300576832233
        },
        "why": []
      },
      "tokens_per_s": 5563.074806703494,
      "tokens_per_s_interval": {
        "low": 4890.955244176194,
        "high": 6327.557656927976,
        "level": 0.8,
        "log_sigma": 0.10047457388894716,
        "parts": {
          "parameters": 0.03128433470869254,
          "structural": 0.09548,
          "distance": 0.0
        },
        "parameters": {
          "kernel_efficiency": 0.015818763318848735,
          "eager_dispatch": -0.026990300576832233
        },
        "why": []
      }
    },
    "compile": {
      "graphs": 49,
      "workers": 1,
      "failures": []
    }
  },
  "compiled": {
    "first_step": {
      "total_s": 254.3040628665599,
      "total_s_interval": {
        "low": 198.40601024368718,
        "high": 325.95059147154495,
        "level": 0.8,
        "log_sigma": 0.19368331946568224,
        "parts": {
          "parameters": 0.10089877712363837,
          "structural": 0.16532593569733658,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.10089740811437026,
          "kernel_efficiency": -0.0005256052205419782
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 70.5612330072896,
        "graph_capture": 0.23,
        "compile": 118.86643241461216,
        "neff_load": 16.435367000000003,
        "collective_bootstrap": 15.0,
        "first_execution": 6.891030444658102
      },
      "ratio_to_steady": 54.50666687230761
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
      }
    },
    "compile": {
      "graphs": 17,
      "workers": 1,
      "failures": []
    }
  },
  "break_even": {
    "steps": 54,
    "tokens": 1769472,
    "steps_interval": {
      "low": 7,
      "high": 276,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.0526331504633208,
      "compiled": 0.0706400174629333
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.04222299376567539,
        "high": 0.06560995042342552,
        "level": 0.8,
        "log_sigma": 0.17196437172316084,
        "parts": {
          "parameters": 0.15729295206750388,
          "structural": 0.06950303858128341,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.15728629068936342,
          "kernel_efficiency": -0.0007208621826747086,
          "eager_dispatch": 0.001255344177797483
        },
        "why": []
      },
      "compiled": {
        "low": 0.05511278062324644,
        "high": 0.09054183096431805,
        "level": 0.8,
        "log_sigma": 0.19368331946568224,
        "parts": {
          "parameters": 0.10089877712363837,
          "structural": 0.16532593569733658,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.10089740811437026,
          "kernel_efficiency": -0.0005256052205419782
        },
        "why": []
      }
    }
  }
}
','',8,'[{size: 2, link_bandwidth: "256 GB/s"}, {size: 4, link_bandwidth: "256 GB/s"}]',8,8,1,8,NULL,NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system=trn2.48xlarge;parallel.dp=1;batch.global_batch=16',3,'qwen3-32b-chips-startup','system=trn2.48xlarge;parallel.dp=1;batch.global_batch=16','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "f0d316af457e0395",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 21% faster per step and overtakes eager after 53 steps; its first step is led by compile (45%), eager''s by weight_init (40%)",
  "tokens_per_step": 65536,
  "eager": {
    "first_step": {
      "total_s": 191.47740588439652,
      "total_s_interval": {
        "low": 158.31017550137616,
        "high": 231.59343262745116,
        "level": 0.8,
        "log_sigma": 0.14842443906772299,
        "parts": {
          "parameters": 0.13471219149364083,
          "structural": 0.062309225444944015,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.13470457488464724,
          "kernel_efficiency": -0.0007133373117161971,
          "eager_dispatch": 0.001242252810635349
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.0,
        "compile": 33.73143582376,
        "neff_load": 30.727642999999986,
        "collective_bootstrap": 16.0,
        "first_execution": 8.709306898940076
      },
      "ratio_to_steady": 32.47240357618721
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
      }
    },
    "compile": {
      "graphs": 49,
      "workers": 1,
      "failures": []
    }
  },
  "compiled": {
    "first_step": {
      "total_s": 256.2470860763042,
      "total_s_interval": {
        "low": 202.7646830828017,
        "high": 323.83632161318076,
        "level": 0.8,
        "log_sigma": 0.18266611778374395,
        "parts": {
          "parameters": 0.0894981466501307,
          "structural": 0.15923879028797072,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08949658225834407,
          "kernel_efficiency": -0.000529167160501571
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.23,
        "compile": 115.36464801133216,
        "neff_load": 15.498047000000003,
        "collective_bootstrap": 16.0,
        "first_execution": 6.8453709032755485
      },
      "ratio_to_steady": 55.2894724745445
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
      }
    },
    "compile": {
      "graphs": 17,
      "workers": 1,
      "failures": []
    }
  },
  "break_even": {
    "steps": 53,
    "tokens": 3473408,
    "steps_interval": {
      "low": 7,
      "high": 249,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.05318816830122126,
      "compiled": 0.07117974613230672
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.043975048750382266,
        "high": 0.06433150906318087,
        "level": 0.8,
        "log_sigma": 0.14842443906772299,
        "parts": {
          "parameters": 0.13471219149364083,
          "structural": 0.062309225444944015,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.13470457488464724,
          "kernel_efficiency": -0.0007133373117161971,
          "eager_dispatch": 0.001242252810635349
        },
        "why": []
      },
      "compiled": {
        "low": 0.05632352307855602,
        "high": 0.0899545337814391,
        "level": 0.8,
        "log_sigma": 0.18266611778374395,
        "parts": {
          "parameters": 0.0894981466501307,
          "structural": 0.15923879028797072,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08949658225834407,
          "kernel_efficiency": -0.000529167160501571
        },
        "why": []
      }
    }
  }
}
','',NULL,NULL,NULL,NULL,1,16,'trn2.48xlarge',NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system=trn2.48xlarge;system.instances=2;parallel.dp=2;batch.global_batch=32',4,'qwen3-32b-chips-startup','system=trn2.48xlarge;system.instances=2;parallel.dp=2;batch.global_batch=32','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "b93eedcf33b48635",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 24% faster per step and overtakes eager after 46 steps; its first step is led by compile (45%), eager''s by weight_init (39%)",
  "tokens_per_step": 131072,
  "eager": {
    "first_step": {
      "total_s": 194.25867277781018,
      "total_s_interval": {
        "low": 160.88322184324045,
        "high": 234.5579080096091,
        "level": 0.8,
        "log_sigma": 0.14709658931540556,
        "parts": {
          "parameters": 0.13326213024121006,
          "structural": 0.0622784973469965,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.13325441499146823,
          "kernel_efficiency": -0.0007031206296276144,
          "eager_dispatch": 0.001249745208829948
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.0,
        "compile": 34.20451862376,
        "neff_load": 31.739936999999983,
        "collective_bootstrap": 17.0,
        "first_execution": 9.005196992353676
      },
      "ratio_to_steady": 31.86160835087226
    },
    "steady": {
      "step_time_s": 6.096951247362001,
      "step_time_s_interval": {
        "low": 5.361586526175249,
        "high": 6.933174412318348,
        "level": 0.8,
        "log_sigma": 0.10029165376348498,
        "parts": {
          "parameters": 0.030691780896760508,
          "structural": 0.09548,
          "distance": 0.0
        },
        "parameters": {
          "kernel_efficiency": -0.015278397538098142,
          "eager_dispatch": 0.02661871490667027
        },
        "why": []
      },
      "tokens_per_s": 21497.95769758067,
      "tokens_per_s_interval": {
        "low": 18905.04871291295,
        "high": 24446.495334936193,
        "level": 0.8,
        "log_sigma": 0.10029165376348498,
        "parts": {
          "parameters": 0.030691780896760508,
          "structural": 0.09548,
          "distance": 0.0
        },
        "parameters": {
          "kernel_efficiency": 0.015278397538098142,
          "eager_dispatch": -0.02661871490667027
        },
        "why": []
      }
    },
    "compile": {
      "graphs": 51,
      "workers": 1,
      "failures": []
    }
  },
  "compiled": {
    "first_step": {
      "total_s": 258.76368180063275,
      "total_s_interval": {
        "low": 205.0915246208612,
        "high": 326.4817653620793,
        "level": 0.8,
        "log_sigma": 0.18138862699023794,
        "parts": {
          "parameters": 0.08849464102235356,
          "structural": 0.15833676929800122,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08849308887815256,
          "kernel_efficiency": -0.0005241283035794373
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.23,
        "compile": 115.83773081133215,
        "neff_load": 16.510341000000004,
        "collective_bootstrap": 17.0,
        "first_execution": 6.876589827604079
      },
      "ratio_to_steady": 55.57899592692407
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
      }
    },
    "compile": {
      "graphs": 19,
      "workers": 1,
      "failures": []
    }
  },
  "break_even": {
    "steps": 46,
    "tokens": 6029312,
    "steps_interval": {
      "low": 6,
      "high": 175,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.10792148487656121,
      "compiled": 0.14375760100035154
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.08937956769068914,
        "high": 0.13030994889422728,
        "level": 0.8,
        "log_sigma": 0.14709658931540556,
        "parts": {
          "parameters": 0.13326213024121006,
          "structural": 0.0622784973469965,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.13325441499146823,
          "kernel_efficiency": -0.0007031206296276144,
          "eager_dispatch": 0.001249745208829948
        },
        "why": []
      },
      "compiled": {
        "low": 0.11393973590047844,
        "high": 0.18137875853448848,
        "level": 0.8,
        "log_sigma": 0.18138862699023794,
        "parts": {
          "parameters": 0.08849464102235356,
          "structural": 0.15833676929800122,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08849308887815256,
          "kernel_efficiency": -0.0005241283035794373
        },
        "why": []
      }
    }
  }
}
','',NULL,NULL,NULL,NULL,2,32,'trn2.48xlarge',2);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system=trn3-gen1-ultraserver;parallel.dp=4;batch.global_batch=64',6,'qwen3-32b-chips-startup','system=trn3-gen1-ultraserver;parallel.dp=4;batch.global_batch=64','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "df3d4421356abffa",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 18% faster per step and overtakes eager after 66 steps; its first step is led by compile (45%), eager''s by weight_init (39%)",
  "tokens_per_step": 262144,
  "eager": {
    "first_step": {
      "total_s": 194.38417696138632,
      "total_s_interval": {
        "low": 158.42277363758112,
        "high": 238.50869029345242,
        "level": 0.8,
        "log_sigma": 0.15962623603743928,
        "parts": {
          "parameters": 0.13316653648236804,
          "structural": 0.06223828722245825,
          "distance": 0.06223828722245825
        },
        "parameters": {
          "compile parameters": 0.13315882565694892,
          "kernel_efficiency": -0.0007026665001171503,
          "eager_dispatch": 0.001248938814254107
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.0,
        "compile": 34.20451862376,
        "neff_load": 31.739936999999983,
        "collective_bootstrap": 18.0,
        "first_execution": 8.130701175929838
      },
      "ratio_to_steady": 35.31127551728451
    },
    "steady": {
      "step_time_s": 5.5048755422680005,
      "step_time_s_interval": {
        "low": 4.605251683367843,
        "high": 6.580238566613844,
        "level": 0.8,
        "log_sigma": 0.1392350056009038,
        "parts": {
          "parameters": 0.03396359793490251,
          "structural": 0.09548,
          "distance": 0.09548
        },
        "parameters": {
          "kernel_efficiency": -0.016935652189943032,
          "eager_dispatch": 0.02943993324695203
        },
        "why": [
          "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
        ]
      },
      "tokens_per_s": 47620.33182897302,
      "tokens_per_s_interval": {
        "low": 39838.06929585197,
        "high": 56922.83897246041,
        "level": 0.8,
        "log_sigma": 0.1392350056009038,
        "parts": {
          "parameters": 0.03396359793490251,
          "structural": 0.09548,
          "distance": 0.09548
        },
        "parameters": {
          "kernel_efficiency": 0.016935652189943032,
          "eager_dispatch": -0.02943993324695203
        },
        "why": [
          "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
        ]
      }
    },
    "compile": {
      "graphs": 51,
      "workers": 1,
      "failures": []
    }
  },
  "compiled": {
    "first_step": {
      "total_s": 259.5215639624222,
      "total_s_interval": {
        "low": 190.7903298234483,
        "high": 353.01287137470024,
        "level": 0.8,
        "log_sigma": 0.24007205829306083,
        "parts": {
          "parameters": 0.0882380584502975,
          "structural": 0.15787437761395717,
          "distance": 0.15787437761395717
        },
        "parameters": {
          "compile parameters": 0.08823647901532466,
          "kernel_efficiency": -0.0005279489144665437
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.23,
        "compile": 115.83773081133215,
        "neff_load": 16.510341000000004,
        "collective_bootstrap": 18.0,
        "first_execution": 6.634471989393558
      },
      "ratio_to_steady": 57.776014517100315
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
      }
    },
    "compile": {
      "graphs": 19,
      "workers": 1,
      "failures": []
    }
  },
  "break_even": {
    "steps": 66,
    "tokens": 17301504,
    "steps_interval": {
      "low": 1,
      "high": null,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.0539956047114962,
      "compiled": 0.07208932332289505
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.044006326010439197,
        "high": 0.06625241397040345,
        "level": 0.8,
        "log_sigma": 0.15962623603743928,
        "parts": {
          "parameters": 0.13316653648236804,
          "structural": 0.06223828722245825,
          "distance": 0.06223828722245825
        },
        "parameters": {
          "compile parameters": 0.13315882565694892,
          "kernel_efficiency": -0.0007026665001171503,
          "eager_dispatch": 0.001248938814254107
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      },
      "compiled": {
        "low": 0.05299731383984675,
        "high": 0.09805913093741674,
        "level": 0.8,
        "log_sigma": 0.24007205829306083,
        "parts": {
          "parameters": 0.0882380584502975,
          "structural": 0.15787437761395717,
          "distance": 0.15787437761395717
        },
        "parameters": {
          "compile parameters": 0.08823647901532466,
          "kernel_efficiency": -0.0005279489144665437
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      }
    }
  }
}
','',NULL,NULL,NULL,NULL,4,64,'trn3-gen1-ultraserver',NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system=trn2-ultraserver;parallel.dp=4;batch.global_batch=64',5,'qwen3-32b-chips-startup','system=trn2-ultraserver;parallel.dp=4;batch.global_batch=64','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "d256e825666901a7",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 22% faster per step and overtakes eager after 50 steps; its first step is led by compile (45%), eager''s by weight_init (39%)",
  "tokens_per_step": 262144,
  "eager": {
    "first_step": {
      "total_s": 195.06474052611657,
      "total_s_interval": {
        "low": 161.67464762256887,
        "high": 235.3507711694532,
        "level": 0.8,
        "log_sigma": 0.14649862215932796,
        "parts": {
          "parameters": 0.13272235708627184,
          "structural": 0.06202114336293459,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.13271467432502315,
          "kernel_efficiency": -0.0007002141005605783,
          "eager_dispatch": 0.0012445840880650606
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.0,
        "compile": 34.20451862376,
        "neff_load": 31.739936999999983,
        "collective_bootstrap": 18.0,
        "first_execution": 8.811264740660075
      },
      "ratio_to_steady": 32.69798720580617
    },
    "steady": {
      "step_time_s": 5.965649790562001,
      "step_time_s_interval": {
        "low": 5.2447297028856825,
        "high": 6.785664741512069,
        "level": 0.8,
        "log_sigma": 0.10049870861229872,
        "parts": {
          "parameters": 0.031361760676654075,
          "structural": 0.09548,
          "distance": 0.0
        },
        "parameters": {
          "kernel_efficiency": -0.015617308076147095,
          "eager_dispatch": 0.027196685849464018
        },
        "why": []
      },
      "tokens_per_s": 43942.23751027538,
      "tokens_per_s_interval": {
        "low": 38632.02943055889,
        "high": 49982.36607994628,
        "level": 0.8,
        "log_sigma": 0.10049870861229872,
        "parts": {
          "parameters": 0.031361760676654075,
          "structural": 0.09548,
          "distance": 0.0
        },
        "parameters": {
          "kernel_efficiency": 0.015617308076147095,
          "eager_dispatch": -0.027196685849464018
        },
        "why": []
      }
    },
    "compile": {
      "graphs": 51,
      "workers": 1,
      "failures": []
    }
  },
  "compiled": {
    "first_step": {
      "total_s": 259.73709929354277,
      "total_s_interval": {
        "low": 206.04215318995873,
        "high": 327.42504242433563,
        "level": 0.8,
        "log_sigma": 0.18071000369923673,
        "parts": {
          "parameters": 0.08816538220813051,
          "structural": 0.15774337012081496,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.088163836568317,
          "kernel_efficiency": -0.0005220550362057394
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.23,
        "compile": 115.83773081133215,
        "neff_load": 16.510341000000004,
        "collective_bootstrap": 18.0,
        "first_execution": 6.850007320514114
      },
      "ratio_to_steady": 56.00456725172813
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
      }
    },
    "compile": {
      "graphs": 19,
      "workers": 1,
      "failures": []
    }
  },
  "break_even": {
    "steps": 50,
    "tokens": 13107200,
    "steps_interval": {
      "low": 7,
      "high": 216,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.05418465014614349,
      "compiled": 0.07214919424820633
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.044909624339602466,
        "high": 0.065375214213737,
        "level": 0.8,
        "log_sigma": 0.14649862215932796,
        "parts": {
          "parameters": 0.13272235708627184,
          "structural": 0.06202114336293459,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.13271467432502315,
          "kernel_efficiency": -0.0007002141005605783,
          "eager_dispatch": 0.0012445840880650606
        },
        "why": []
      },
      "compiled": {
        "low": 0.0572339314416552,
        "high": 0.09095140067342657,
        "level": 0.8,
        "log_sigma": 0.18071000369923673,
        "parts": {
          "parameters": 0.08816538220813051,
          "structural": 0.15774337012081496,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.088163836568317,
          "kernel_efficiency": -0.0005220550362057394
        },
        "why": []
      }
    }
  }
}
','',NULL,NULL,NULL,NULL,4,64,'trn2-ultraserver',NULL);
INSERT INTO "points" VALUES('qwen3-32b-chips-startup:system=trn3-gen2-ultraserver;parallel.dp=9;batch.global_batch=144',7,'qwen3-32b-chips-startup','system=trn3-gen2-ultraserver;parallel.dp=9;batch.global_batch=144','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "74140490374ca004",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 27% faster per step and overtakes eager after 40 steps; its first step is led by compile (57%), eager''s by compile (24%)",
  "tokens_per_step": 589824,
  "eager": {
    "first_step": {
      "total_s": 139.63100281753586,
      "total_s_interval": {
        "low": 103.86542713564619,
        "high": 187.71228776990685,
        "level": 0.8,
        "log_sigma": 0.230897582104089,
        "parts": {
          "parameters": 0.19570246031693087,
          "structural": 0.08664363925705862,
          "distance": 0.08664363925705862
        },
        "parameters": {
          "compile parameters": 0.19569229493151938,
          "kernel_efficiency": -0.0009783362668597303,
          "eager_dispatch": 0.001738256794630237
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 18.997255040424122,
        "graph_capture": 0.0,
        "compile": 34.20451862376,
        "neff_load": 31.739936999999983,
        "collective_bootstrap": 19.169925001442312,
        "first_execution": 9.199367151909419
      },
      "ratio_to_steady": 22.41838897784337
    },
    "steady": {
      "step_time_s": 6.228413779221,
      "step_time_s_interval": {
        "low": 5.21657887842623,
        "high": 7.436509465163764,
        "level": 0.8,
        "log_sigma": 0.1383322337583939,
        "parts": {
          "parameters": 0.030049061492614694,
          "structural": 0.09548,
          "distance": 0.09548
        },
        "parameters": {
          "kernel_efficiency": -0.014953494527938666,
          "eager_dispatch": 0.02606413432266354
        },
        "why": [
          "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
        ]
      },
      "tokens_per_s": 94698.91065486828,
      "tokens_per_s_interval": {
        "low": 79314.63044093782,
        "high": 113067.20625643869,
        "level": 0.8,
        "log_sigma": 0.1383322337583939,
        "parts": {
          "parameters": 0.030049061492614694,
          "structural": 0.09548,
          "distance": 0.09548
        },
        "parameters": {
          "kernel_efficiency": 0.014953494527938666,
          "eager_dispatch": -0.02606413432266354
        },
        "why": [
          "chip trn3: the runtime fit has no observation with it (trn1, trn2)"
        ]
      }
    },
    "compile": {
      "graphs": 51,
      "workers": 1,
      "failures": []
    }
  },
  "compiled": {
    "first_step": {
      "total_s": 203.79001771912843,
      "total_s_interval": {
        "low": 137.28303261085915,
        "high": 302.5164183230434,
        "level": 0.8,
        "log_sigma": 0.30825557369739703,
        "parts": {
          "parameters": 0.11907978357511567,
          "structural": 0.20104912814933443,
          "distance": 0.20104912814933443
        },
        "parameters": {
          "compile parameters": 0.11907790535708539,
          "kernel_efficiency": -0.0006688139243490742
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 18.997255040424122,
        "graph_capture": 0.23,
        "compile": 115.83773081133215,
        "neff_load": 16.510341000000004,
        "collective_bootstrap": 19.169925001442312,
        "first_execution": 6.7247658659298395
      },
      "ratio_to_steady": 44.759603854183176
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
      }
    },
    "compile": {
      "graphs": 19,
      "workers": 1,
      "failures": []
    }
  },
  "break_even": {
    "steps": 40,
    "tokens": 23592960,
    "steps_interval": {
      "low": 1,
      "high": 263,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.03878638967153774,
      "compiled": 0.05660833825531345
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.028851507537679497,
        "high": 0.05214230215830746,
        "level": 0.8,
        "log_sigma": 0.230897582104089,
        "parts": {
          "parameters": 0.19570246031693087,
          "structural": 0.08664363925705862,
          "distance": 0.08664363925705862
        },
        "parameters": {
          "compile parameters": 0.19569229493151938,
          "kernel_efficiency": -0.0009783362668597303,
          "eager_dispatch": 0.001738256794630237
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      },
      "compiled": {
        "low": 0.03813417572523865,
        "high": 0.08403233842306762,
        "level": 0.8,
        "log_sigma": 0.30825557369739703,
        "parts": {
          "parameters": 0.11907978357511567,
          "structural": 0.20104912814933443,
          "distance": 0.20104912814933443
        },
        "parameters": {
          "compile parameters": 0.11907790535708539,
          "kernel_efficiency": -0.0006688139243490742
        },
        "why": [
          "chip trn3: the compile fit has no observation with it (trn1, trn2)"
        ]
      }
    }
  }
}
','',NULL,NULL,NULL,NULL,9,144,'trn3-gen2-ultraserver',NULL);
COMMIT;
