BEGIN TRANSACTION;
CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, sweep TEXT, sets TEXT, status TEXT, result TEXT, reason TEXT, "compile.cache");
INSERT INTO "points" VALUES('qwen3-32b-startup-cache:compile.cache=cold',0,'qwen3-32b-startup-cache','compile.cache=cold','ok','{
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
','','cold');
INSERT INTO "points" VALUES('qwen3-32b-startup-cache:compile.cache=partial',1,'qwen3-32b-startup-cache','compile.cache=partial','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "261c3daa345ae26a",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 21% faster per step and overtakes eager after 16 steps; its first step is led by weight_init (38%), eager''s by weight_init (42%)",
  "tokens_per_step": 65536,
  "eager": {
    "first_step": {
      "total_s": 182.82493160195654,
      "total_s_interval": {
        "low": 161.6580528638673,
        "high": 206.76331938383132,
        "level": 0.8,
        "log_sigma": 0.09601308358317219,
        "parts": {
          "parameters": 0.08285196198135245,
          "structural": 0.048518703764525065,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08283837766561607,
          "kernel_efficiency": -0.0007471097238360716,
          "eager_dispatch": 0.0013010061294166273
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.0,
        "compile": 25.078961541320005,
        "neff_load": 30.727642999999986,
        "collective_bootstrap": 16.0,
        "first_execution": 8.709306898940076
      },
      "ratio_to_steady": 31.005041745509374
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
      "total_s": 201.42850379783815,
      "total_s_interval": {
        "low": 171.19631939805524,
        "high": 236.99950025150252,
        "level": 0.8,
        "log_sigma": 0.12689581791204665,
        "parts": {
          "parameters": 0.06927757341659593,
          "structural": 0.10631635069487412,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.06927430218015357,
          "kernel_efficiency": -0.0006732280034365581
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.23,
        "compile": 60.546065732866104,
        "neff_load": 15.498047000000003,
        "collective_bootstrap": 16.0,
        "first_execution": 6.8453709032755485
      },
      "ratio_to_steady": 43.461472623352925
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
    "steps": 16,
    "tokens": 1048576,
    "steps_interval": {
      "low": 1,
      "high": 93,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.0507847032227657,
      "compiled": 0.05595236216606615
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.044905014684407586,
        "high": 0.05743425538439759,
        "level": 0.8,
        "log_sigma": 0.09601308358317219,
        "parts": {
          "parameters": 0.08285196198135245,
          "structural": 0.048518703764525065,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08283837766561607,
          "kernel_efficiency": -0.0007471097238360716,
          "eager_dispatch": 0.0013010061294166273
        },
        "why": []
      },
      "compiled": {
        "low": 0.047554533166126456,
        "high": 0.06583319451430626,
        "level": 0.8,
        "log_sigma": 0.12689581791204665,
        "parts": {
          "parameters": 0.06927757341659593,
          "structural": 0.10631635069487412,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.06927430218015357,
          "kernel_efficiency": -0.0006732280034365581
        },
        "why": []
      }
    }
  }
}
','','partial');
INSERT INTO "points" VALUES('qwen3-32b-startup-cache:compile.cache=warm',2,'qwen3-32b-startup-cache','compile.cache=warm','ok','{
  "schema_version": 1,
  "trnsim_version": "8f0adeb-dirty",
  "inputs_hash": "f40b842c896e8a80",
  "scenario": "qwen3-32b-trn2",
  "model": {
    "name": "qwen3-32b",
    "architecture": "qwen3",
    "parameters": 32762123264,
    "active_parameters": 31984210944
  },
  "verdict": "compiled is 21% faster per step and overtakes eager after 1 steps; its first step is led by weight_init (52%), eager''s by weight_init (44%)",
  "tokens_per_step": 65536,
  "eager": {
    "first_step": {
      "total_s": 174.17245731951655,
      "total_s_interval": {
        "low": 154.8963729336054,
        "high": 195.84735468093902,
        "level": 0.8,
        "log_sigma": 0.09152156967705719,
        "parts": {
          "parameters": 0.08522581844845738,
          "structural": 0.03335802131336653,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08521126835997637,
          "kernel_efficiency": -0.0007842389187429636,
          "eager_dispatch": 0.0013655929158555178
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.0,
        "compile": 16.426487258879998,
        "neff_load": 30.727642999999986,
        "collective_bootstrap": 16.0,
        "first_execution": 8.709306898940076
      },
      "ratio_to_steady": 29.537679914831532
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
      "total_s": 146.60992151937202,
      "total_s_interval": {
        "low": 128.5344072184754,
        "high": 167.22735610692445,
        "level": 0.8,
        "log_sigma": 0.1026715111439127,
        "parts": {
          "parameters": 0.10173745897437324,
          "structural": 0.013817693078524729,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.10173325319070928,
          "kernel_efficiency": -0.0009250696175529981
        },
        "why": []
      },
      "parts": {
        "process_start": 26.32,
        "weight_init": 75.98902016169649,
        "graph_capture": 0.23,
        "compile": 5.7274834544000015,
        "neff_load": 15.498047000000003,
        "collective_bootstrap": 16.0,
        "first_execution": 6.8453709032755485
      },
      "ratio_to_steady": 31.63347277216133
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
    "steps": 1,
    "tokens": 65536,
    "steps_interval": {
      "low": 1,
      "high": 1,
      "level": 0.8,
      "method": "quantiles of 4000 draws of the linearised first and steady steps (docs/model.md 12)"
    }
  },
  "cost": {
    "instance_hours": {
      "eager": 0.048381238144310154,
      "compiled": 0.04072497819982556
    },
    "instance_hours_interval": {
      "eager": {
        "low": 0.04302677025933483,
        "high": 0.05440204296692751,
        "level": 0.8,
        "log_sigma": 0.09152156967705719,
        "parts": {
          "parameters": 0.08522581844845738,
          "structural": 0.03335802131336653,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.08521126835997637,
          "kernel_efficiency": -0.0007842389187429636,
          "eager_dispatch": 0.0013655929158555178
        },
        "why": []
      },
      "compiled": {
        "low": 0.03570400200513205,
        "high": 0.046452043363034566,
        "level": 0.8,
        "log_sigma": 0.1026715111439127,
        "parts": {
          "parameters": 0.10173745897437324,
          "structural": 0.013817693078524729,
          "distance": 0.0
        },
        "parameters": {
          "compile parameters": 0.10173325319070928,
          "kernel_efficiency": -0.0009250696175529981
        },
        "why": []
      }
    }
  }
}
','','warm');
COMMIT;
